import { data, useActionData } from "react-router";
import { consoleAudit, requireRecentSecondFactorFor } from "~/adapters/console.server";
import { consoleFailure } from "~/adapters/console-failure.server";
import { getApp } from "~/adapters/context.server";
import { ConsolePage } from "~/components/console/console-page";
import { type CreatedInvitation, CreatedLink, InvitationForm } from "~/components/console/staff/invitation-form";
import { useConsoleT } from "~/components/console/use-console-t";
import { invitationUrl, inviteStaff } from "~/domain/staff/accounts.server";
import { invitationSchema, storesKept } from "~/domain/staff/forms";
import { requirePermission } from "~/domain/staff/guard.server";
import { storeChoicesFor } from "~/domain/staff/store-choices.server";
import { requestNow } from "~/lib/clock.server";
import { formFailure, parseForm, readForm } from "~/lib/forms.server";
import { getLocale, serverT } from "~/lib/i18n.server";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/invite";

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
    Object.assign(stepUp.answer.data.values, storesKept(form));
    return stepUp.answer;
  }
  const parsed = parseForm(invitationSchema(form), form);
  if (!parsed.ok) return formFailure(parsed.failure);
  try {
    const now = requestNow(request, app.config);
    const { invitation, token } = await inviteStaff(
      app.db,
      stepUp.actor,
      parsed.data,
      consoleAudit(context, request),
      now,
    );
    // The link exists only in this answer (the database keeps its hash): never cached, never logged.
    const created: CreatedInvitation = {
      url: invitationUrl(app.config.publicBaseUrl, token),
      displayName: invitation.displayName,
      contact: invitation.email ?? invitation.phoneNumber ?? "",
      expiresAt: invitation.expiresAt.toISOString(),
    };
    return data({ created });
  } catch (error) {
    return consoleFailure(error, form, serverT(request), { values: storesKept(form) });
  }
}

export default function InviteStaff({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const state = useActionData() as { stepUp?: boolean; created?: CreatedInvitation } | undefined;
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
        <InvitationForm stores={loaderData.stores} stepUp={Boolean(state?.stepUp)} />
      )}
    </ConsolePage>
  );
}
