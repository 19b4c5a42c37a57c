import { Field } from "~/components/ui/field";
import { useT } from "~/lib/i18n";

type Errors = readonly string[] | null | undefined;

/**
 * The e-mail field, in its own module (not with the other auth fields in fields.tsx): the profile
 * form (edit-info, sign-up step 3) needs only this one.
 */
export function EmailField({
  defaultValue,
  errors,
  required = true,
  description,
}: {
  defaultValue?: string;
  errors?: Errors;
  required?: boolean;
  description?: string;
}) {
  const t = useT();
  return (
    <Field
      label={t("auth.email.label")}
      description={description}
      errors={errors}
      inputProps={{ name: "email", type: "email", autoComplete: "email", required, maxLength: 254, defaultValue }}
    />
  );
}
