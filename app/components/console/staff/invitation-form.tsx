import { Form, useNavigation } from "react-router";
import { Alert } from "~/components/ui/alert";
import { Button, buttonVariants } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Link } from "~/components/ui/link";
import { useLocale } from "~/lib/i18n";
import { formatTaipei } from "~/lib/time";
import { useFormState } from "~/lib/use-form-state";
import { CopyField } from "../copy-field";
import { StaffAccessFields } from "../staff-access-fields";
import { StepUpField } from "../step-up-field";
import { useConsoleT } from "../use-console-t";

export type CreatedInvitation = { url: string; displayName: string; contact: string; expiresAt: string };

/** The invitation just created: its single-use link, shown this once. */
export function CreatedLink({ created }: { created: CreatedInvitation }) {
  const t = useConsoleT();
  const locale = useLocale();
  return (
    <section
      className="mt-6 space-y-4 rounded-2xl border border-success-700/30 bg-white p-5"
      data-testid="invitation-created"
    >
      <Alert tone="success" title={t("console.staff.invite.doneTitle")}>
        {t("console.staff.invite.doneBody", {
          name: created.displayName,
          contact: created.contact,
          time: formatTaipei(created.expiresAt, locale, "dateTime"),
        })}
      </Alert>
      <CopyField
        id="invitation-link"
        label={t("console.staff.invite.link")}
        value={created.url}
        copyLabel={t("console.staff.invite.copy")}
        testId="invitation-link"
      />
      <div className="flex flex-wrap gap-3">
        <Link to="/admin/staff/invite" reloadDocument className={buttonVariants({ variant: "secondary" })}>
          {t("console.staff.invite.another")}
        </Link>
        <Link to="/admin/staff" className={buttonVariants({ variant: "ghost" })}>
          {t("console.staff.invite.backToList")}
        </Link>
      </div>
    </section>
  );
}

/** Who is invited (contact and name), their role and stores; the code when the server asks for it. */
export function InvitationForm({ stores, stepUp }: { stores: { id: string; name: string }[]; stepUp: boolean }) {
  const t = useConsoleT();
  const form = useFormState();
  const pending = useNavigation().state === "submitting";
  const text = (name: "contact" | "displayName", key: "contact" | "name", maxLength: number) => (
    <Field
      label={t(`console.staff.invite.${key}`)}
      description={t(`console.staff.invite.${key}Hint`)}
      errors={form.errors(name)}
      inputProps={{
        name,
        type: "text",
        autoComplete: "off",
        required: true,
        maxLength,
        defaultValue: form.value(name),
      }}
    />
  );
  return (
    <Form method="post" className="mt-6 space-y-5 rounded-2xl border border-line bg-white p-5">
      {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
      {text("contact", "contact", 254)}
      {text("displayName", "name", 50)}
      <StaffAccessFields
        stores={stores}
        role={form.value("role", "staff")}
        storeIds={form.value("storeIds").split(",").filter(Boolean)}
        errors={form.errors}
      />
      <StepUpField show={stepUp} errors={form.errors("stepUpCode")} />
      <Button type="submit" pending={pending}>
        {t("console.staff.invite.submit")}
      </Button>
    </Form>
  );
}
