import { data, Form, useNavigation } from "react-router";
import { consoleAudit, requireRecentSecondFactorFor } from "~/adapters/console.server";
import { consoleFailure } from "~/adapters/console-failure.server";
import { getApp } from "~/adapters/context.server";
import { ConsolePage } from "~/components/console/console-page";
import { CopyField } from "~/components/console/copy-field";
import { StaffAccessFields } from "~/components/console/staff-access-fields";
import { StepUpField } from "~/components/console/step-up-field";
import { useConsoleT } from "~/components/console/use-console-t";
import { Alert } from "~/components/ui/alert";
import { Button, buttonVariants } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Link } from "~/components/ui/link";
import { invitationUrl, inviteStaff } from "~/domain/staff/accounts.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { storeChoicesFor } from "~/domain/staff/store-choices.server";
import { requestNow } from "~/lib/clock.server";
import { readForm } from "~/lib/forms.server";
import { useLocale } from "~/lib/i18n";
import { getLocale, serverT } from "~/lib/i18n.server";
import { pageMeta } from "~/lib/meta";
import { formatTaipei } from "~/lib/time";
import { useFormState } from "~/lib/use-form-state";
import { staffFormValues } from "../form-answers.server";
import type { Route } from "./+types/invite";
import { accessFromForm } from "./staff.server";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.staff.invite.title");

/** An admin invites a staff member: contact, name, role and stores; the single-use link is shown once. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const app = getApp(context);
  const actor = requirePermission(context, "staff.manage");
  return { stores: await storeChoicesFor(app.db, actor, getLocale(request)) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const app = getApp(context);
  requirePermission(context, "staff.manage");
  const form = await readForm(request);
  const stepUp = await requireRecentSecondFactorFor(context, request, form);
  if (!stepUp.ok) {
    // The stores ticked come back as one value (the step-up answer keeps single values only).
    const answer = stepUp.answer;
    answer.data.values.storeIds = form.getAll("storeIds").map(String).join(",");
    return answer;
  }
  const t = serverT(request);
  const contact = String(form.get("contact") ?? "").slice(0, 300);
  const displayName = String(form.get("displayName") ?? "").slice(0, 300);
  try {
    const { invitation, token } = await inviteStaff(
      app.db,
      stepUp.actor,
      { contact, displayName, ...accessFromForm(form) },
      consoleAudit(context, request),
      requestNow(request, app.config),
    );
    // The link exists only in this answer (the database keeps its hash): never cached, never logged.
    return data({
      created: {
        url: invitationUrl(app.config.publicBaseUrl, token),
        displayName: invitation.displayName,
        contact: invitation.email ?? invitation.phoneNumber ?? "",
        expiresAt: invitation.expiresAt.toISOString(),
      },
    });
  } catch (error) {
    return consoleFailure(error, null, t, { values: staffFormValues(form) });
  }
}

type Created = { url: string; displayName: string; contact: string; expiresAt: string };

function CreatedLink({ created }: { created: Created }) {
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

export default function InviteStaff({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const form = useFormState();
  const pending = useNavigation().state === "submitting";
  const state = form.state as { stepUp?: boolean; created?: Created } | undefined;
  return (
    <ConsolePage
      width="3xl"
      back={{ to: "/admin/staff", label: t("console.staff.detail.back") }}
      title={t("console.staff.invite.title")}
      lead={t("console.staff.invite.lead")}
    >
      {state?.created ? (
        <CreatedLink created={state.created} />
      ) : (
        <Form method="post" className="mt-6 space-y-5 rounded-2xl border border-line bg-white p-5">
          {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
          <Field
            label={t("console.staff.invite.contact")}
            description={t("console.staff.invite.contactHint")}
            errors={form.errors("contact")}
            inputProps={{
              name: "contact",
              type: "text",
              autoComplete: "off",
              required: true,
              maxLength: 254,
              defaultValue: form.value("contact"),
            }}
          />
          <Field
            label={t("console.staff.invite.name")}
            description={t("console.staff.invite.nameHint")}
            errors={form.errors("displayName")}
            inputProps={{
              name: "displayName",
              type: "text",
              autoComplete: "off",
              required: true,
              maxLength: 50,
              defaultValue: form.value("displayName"),
            }}
          />
          <StaffAccessFields
            stores={loaderData.stores}
            role={form.value("role", "staff")}
            storeIds={form.value("storeIds").split(",").filter(Boolean)}
            errors={form.errors}
          />
          <StepUpField show={Boolean(state?.stepUp)} errors={form.errors("stepUpCode")} />
          <Button type="submit" pending={pending}>
            {t("console.staff.invite.submit")}
          </Button>
        </Form>
      )}
    </ConsolePage>
  );
}
