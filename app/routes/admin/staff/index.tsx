import { data, redirect, useNavigation } from "react-router";
import { consoleAudit, requireRecentSecondFactorFor } from "~/adapters/console.server";
import { getApp } from "~/adapters/context.server";
import { ConsoleList, FilterBar, RowLink, useFilterFields } from "~/components/console/console-list";
import { ConsolePage } from "~/components/console/console-page";
import { InvitationList } from "~/components/console/staff/invitation-list";
import { PageNotices, StepUpConfirm } from "~/components/console/staff/post-forms";
import { useConsoleT } from "~/components/console/use-console-t";
import { buttonVariants } from "~/components/ui/button";
import { Link } from "~/components/ui/link";
import { revokeInvitation } from "~/domain/staff/accounts.server";
import { type StaffStatusFilter, staffListPage } from "~/domain/staff/console.server";
import { revokeInvitationSchema } from "~/domain/staff/forms";
import { requirePermission } from "~/domain/staff/guard.server";
import { requestNow } from "~/lib/clock.server";
import { formFailure, parseForm, readForm } from "~/lib/forms.server";
import { useLocale } from "~/lib/i18n";
import { getLocale, serverT } from "~/lib/i18n.server";
import { listField, parseListQuery } from "~/lib/list-query";
import { pageMeta } from "~/lib/meta";
import { formatTaipei } from "~/lib/time";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.staff.title");

const STATUSES = ["active", "disabled", "all"] as const satisfies readonly StaffStatusFilter[];
const STAFF_QUERY = { q: listField.text(100), status: listField.choice(STATUSES, "active") };

/** The staff list (admins): search and status in the URL, open invitations below. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const app = getApp(context);
  const actor = requirePermission(context, "staff.manage");
  const url = new URL(request.url);
  const query = parseListQuery(url, STAFF_QUERY).values;
  const now = requestNow(request, app.config);
  return {
    query,
    revoked: url.searchParams.get("revoked") === "1",
    ...(await staffListPage(app.db, actor, query, now, getLocale(request))),
  };
}

/** Revokes an open invitation (a staff change: the second factor must be recent). */
export async function action({ request, context }: Route.ActionArgs) {
  const app = getApp(context);
  requirePermission(context, "staff.manage");
  const form = await readForm(request);
  const stepUp = await requireRecentSecondFactorFor(context, request, form);
  if (!stepUp.ok) return stepUp.answer;
  const parsed = parseForm(revokeInvitationSchema, form);
  if (!parsed.ok) return formFailure(parsed.failure);
  const now = requestNow(request, app.config);
  const audit = consoleAudit(context, request);
  if (await revokeInvitation(app.db, stepUp.actor, parsed.data.invitationId, audit, now)) {
    return redirect("/admin/staff?revoked=1");
  }
  return data({ formError: serverT(request)("console.staff.error.invitation") }, { status: 409 });
}

export default function StaffList({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const filter = useFilterFields("console.staff");
  const locale = useLocale();
  const form = useFormState();
  const submitting = useNavigation().state === "submitting";
  const { staff, query } = loaderData;
  return (
    <ConsolePage
      title={t("console.staff.title")}
      lead={t("console.staff.lead")}
      action={
        <Link to="/admin/staff/invite" className={buttonVariants({ variant: "brand" })}>
          {t("console.staff.invite")}
        </Link>
      }
      notices={
        <PageNotices
          done={loaderData.revoked && !form.state ? t("console.staff.revoked") : null}
          error={form.formError}
        >
          {form.state && "stepUp" in form.state ? (
            <StepUpConfirm
              fields={{ invitationId: form.value("invitationId") }}
              label={t("console.staff.revoke")}
              errors={form.errors("stepUpCode")}
              pending={submitting}
            />
          ) : null}
        </PageNotices>
      }
    >
      <ConsoleList
        filters={
          <FilterBar
            submitLabel={t("console.staff.filter")}
            columns="lg:grid-cols-[3fr_1fr_auto]"
            fields={[filter.search("q", query.q), filter.choice("status", query.status, STATUSES)]}
          />
        }
        count={t("console.staff.count", { count: staff.length })}
        countTestId="staff-count"
        empty={t("console.staff.empty")}
        label={t("console.staff.title")}
        testId="staff-table"
        minWidth="44rem"
        rows={staff}
        rowKey={(s) => s.userId}
        rowTestId="staff-row"
        rowProps={(s) => ({ className: s.disabled ? "text-muted" : undefined })}
        columns={[
          {
            key: "name",
            header: t("console.staff.col.name"),
            cell: (s) => (
              <>
                <RowLink to={`/admin/staff/${s.userId}`}>{s.displayName}</RowLink>
                {s.disabled ? (
                  <span className="ml-2 rounded-full bg-danger-700/10 px-2 py-0.5 text-xs text-danger-800">
                    {t("console.staff.disabledBadge")}
                  </span>
                ) : null}
                <span className="block text-xs text-muted">{s.contact}</span>
              </>
            ),
          },
          {
            key: "role",
            header: t("console.staff.col.role"),
            className: "whitespace-nowrap",
            cell: (s) => t(`console.role.${s.role}`),
          },
          {
            key: "stores",
            header: t("console.staff.col.stores"),
            cell: (s) => (s.stores ? s.stores.join("、") : t("console.staff.allStores")),
          },
          {
            key: "secondFactor",
            header: t("console.staff.col.secondFactor"),
            className: "whitespace-nowrap",
            cell: (s) => (s.enrolled ? t("console.staff.enrolled") : t("console.staff.notEnrolled")),
          },
          {
            key: "lastSeen",
            header: t("console.staff.col.lastSeen"),
            className: "whitespace-nowrap tabular-nums",
            cell: (s) => (s.lastSeenAt ? formatTaipei(s.lastSeenAt, locale, "dateTime") : t("console.staff.never")),
          },
        ]}
      />
      <InvitationList invitations={loaderData.invitations} />
    </ConsolePage>
  );
}
