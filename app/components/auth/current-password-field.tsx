import { Field } from "~/components/ui/field";
import { useT } from "~/lib/i18n";

/** The password someone already has (login, identity check, password change). */
export function CurrentPasswordField({
  errors,
  name = "password",
  label,
}: {
  errors?: readonly string[] | null;
  name?: string;
  label?: string;
}) {
  const t = useT();
  return (
    <Field
      label={label ?? t("auth.password.label")}
      errors={errors}
      inputProps={{ name, type: "password", autoComplete: "current-password", required: true, maxLength: 128 }}
    />
  );
}
