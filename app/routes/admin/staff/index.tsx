import { data, Form, redirect, useNavigation } from "react-router";
import { consoleAudit, requireRecentSecondFactorFor } from "~/adapters/console.server";
import { getApp } from "~/adapters/context.server";
import { ConsolePage } from "~/components/console/console-page";
import { StepUpField } from "~/components/console/step-up-field";
import { TableScroll } from "~/components/console/table-scroll";
import { useConsoleT } from "~/components/console/use-console-t";
import { Alert } from "~/components/ui/alert";
import { Button, buttonVariants } from "~/components/ui/button";
import { inputClass } from "~/components/ui/input-class";
import { Link } from "~/components/ui/link";
import { revokeInvitation } from "~/domain/staff/accounts.server";
import { listStaff, openInvitations, type StaffStatusFilter } from "~/domain/staff/console.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { storeChoicesFor } from "~/domain/staff/store-choices.server";
import { requestNow } from "~/lib/clock.server";
import { cn } from "~/lib/cn";
import { readForm } from "~/lib/forms.server";
import { useLocale } from "~/lib/i18n";
import { getLocale, serverT } from "~/lib/i18n.server";
import { listField, parseListQuery } from "~/lib/list-query";
import { pageMeta } from "~/lib/meta";
import { formatTaipei } from "~/lib/time";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.staff.title");

const STATUSES = ["active", "disabled", "all"] as const satisfies readonly StaffStatusFilter[];

/** The staff list (admins): search and status in the URL, open invitations below. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const app = getApp(context);
  const actor = requirePermission(context, "staff.manage");
  const url = new URL(request.url);
  const { q, status } = parseListQuery(url, {
    q: listField.text(100),
    status: listField.choice(STATUSES, "active"),
  }).values;
  const now = requestNow(request, app.config);
  const [staff, invitations, stores] = await Promise.all([
    listStaff(app.db, actor, { q, status }),
    openInvitations(app.db, actor, now),
    storeChoicesFor(app.db, actor, getLocale(request)),
  ]);
  const storeName = new Map(stores.map((s) => [s.id, s.name]));
  const names = (ids: readonly string[]) => ids.map((id) => storeName.get(id) ?? id);
  return {
    q,
    status,
    revoked: url.searchParams.get("revoked") === "1",
    staff: staff.map((s) => ({
      userId: s.userId,
      displayName: s.displayName,
      role: s.role,
      contact: s.email ?? s.phoneNumber ?? "",
      stores: s.role === "admin" ? null : names(s.storeIds),
      disabled: s.disabled,
      enrolled: s.enrolled,
      lastSeenAt: s.lastSeenAt?.toISOString() ?? null,
      self: s.userId === actor.userId,
    })),
    invitations: invitations.map((i) => ({
      id: i.id,
      displayName: i.displayName,
      contact: i.email ?? i.phoneNumber ?? "",
      role: i.role,
      stores: i.role === "admin" ? null : names(i.storeIds),
      invitedBy: i.invitedBy,
      expiresAt: i.expiresAt.toISOString(),
    })),
  };
}

/** Revokes an open invitation (a staff change: the second factor must be recent). */
export async function action({ request, context }: Route.ActionArgs) {
  const app = getApp(context);
  requirePermission(context, "staff.manage");
  const form = await readForm(request);
  const stepUp = await requireRecentSecondFactorFor(context, request, form);
  if (!stepUp.ok) return stepUp.answer;
  const id = String(form.get("invitationId") ?? "");
  const t = serverT(request);
  const valid = /^[0-9a-f-]{36}$/i.test(id);
  const revoked =
    valid &&
    (await revokeInvitation(app.db, stepUp.actor, id, consoleAudit(context, request), requestNow(request, app.config)));
  if (!revoked) return data({ formError: t("console.staff.error.invitation") }, { status: 409 });
  return redirect("/admin/staff?revoked=1");
}

export default function StaffList({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const locale = useLocale();
  const form = useFormState();
  const navigation = useNavigation();
  const state = form.state as { stepUp?: boolean; values?: Record<string, string> } | undefined;
  const { staff, invitations } = loaderData;
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
        <>
          {loaderData.revoked && !form.state ? <Alert tone="success">{t("console.staff.revoked")}</Alert> : null}
          {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
          {state?.stepUp ? (
            <Form method="post" className="space-y-4 rounded-2xl border border-line bg-white p-5">
              <input type="hidden" name="invitationId" value={state.values?.invitationId ?? ""} />
              <StepUpField show errors={form.errors("stepUpCode")} />
              <Button type="submit" pending={navigation.state === "submitting"}>
                {t("console.staff.revoke")}
              </Button>
            </Form>
          ) : null}
        </>
      }
    >
      <Form
        method="get"
        role="search"
        className="mt-6 flex flex-wrap items-end gap-3 rounded-2xl border border-line bg-white p-4"
      >
        <label className="min-w-56 flex-1 text-sm">
          <span className="block font-medium">{t("console.staff.search")}</span>
          <input
            type="search"
            name="q"
            defaultValue={loaderData.q}
            maxLength={100}
            className={cn(inputClass, "mt-1")}
          />
        </label>
        <label className="text-sm">
          <span className="block font-medium">{t("console.staff.status")}</span>
          <select
            name="status"
            defaultValue={loaderData.status}
            className={cn(inputClass, "select-chevron mt-1 pr-10")}
          >
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`console.staff.status.${s}`)}
              </option>
            ))}
          </select>
        </label>
        <Button type="submit" variant="secondary">
          {t("console.staff.filter")}
        </Button>
      </Form>

      <p className="mt-4 text-sm text-muted" data-testid="staff-count">
        {t("console.staff.count", { count: staff.length })}
      </p>
      {staff.length === 0 ? (
        <p className="mt-3 rounded-2xl border border-line bg-white p-6 text-center text-muted">
          {t("console.staff.empty")}
        </p>
      ) : (
        <TableScroll label={t("console.staff.title")} className="mt-3 rounded-2xl border border-line">
          <table className="w-full min-w-[44rem] text-left text-sm" data-testid="staff-table">
            <thead className="border-b border-line bg-sand/50 text-muted">
              <tr>
                {(["name", "role", "stores", "secondFactor", "lastSeen"] as const).map((col) => (
                  <th key={col} scope="col" className="px-4 py-3 font-medium">
                    {t(`console.staff.col.${col}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-line">
              {staff.map((s) => (
                <tr key={s.userId} data-testid="staff-row" className={s.disabled ? "text-muted" : undefined}>
                  <td className="px-4 py-3">
                    <Link
                      to={`/admin/staff/${s.userId}`}
                      className="font-medium text-ink underline decoration-line underline-offset-4 hover:decoration-ink"
                    >
                      {s.displayName}
                    </Link>
                    {s.disabled ? (
                      <span className="ml-2 rounded-full bg-danger-700/10 px-2 py-0.5 text-xs text-danger-800">
                        {t("console.staff.disabledBadge")}
                      </span>
                    ) : null}
                    <span className="block text-xs text-muted">{s.contact}</span>
                  </td>
                  <td className="px-4 py-3 whitespace-nowrap">{t(`console.role.${s.role}`)}</td>
                  <td className="px-4 py-3">{s.stores ? s.stores.join("、") : t("console.staff.allStores")}</td>
                  <td className="px-4 py-3 whitespace-nowrap">
                    {s.enrolled ? t("console.staff.enrolled") : t("console.staff.notEnrolled")}
                  </td>
                  <td className="px-4 py-3 whitespace-nowrap tabular-nums">
                    {s.lastSeenAt ? formatTaipei(s.lastSeenAt, locale, "dateTime") : t("console.staff.never")}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}

      <section className="mt-10" aria-labelledby="invitations-title">
        <h2 id="invitations-title" className="text-xl font-semibold">
          {t("console.staff.invitations")}
        </h2>
        {invitations.length === 0 ? (
          <p className="mt-3 text-sm text-muted">{t("console.staff.invitationsEmpty")}</p>
        ) : (
          <ul className="mt-3 grid gap-3 md:grid-cols-2" data-testid="invitations">
            {invitations.map((i) => (
              <li key={i.id} className="rounded-2xl border border-line bg-white p-4" data-testid="invitation">
                <p className="font-medium">
                  {i.displayName}
                  <span className="ml-2 rounded-full bg-sand px-2 py-0.5 text-xs">{t(`console.role.${i.role}`)}</span>
                </p>
                <p className="mt-1 text-sm text-muted">{i.contact}</p>
                <p className="mt-1 text-sm">{i.stores ? i.stores.join("、") : t("console.staff.allStores")}</p>
                <p className="mt-2 text-xs text-muted tabular-nums">
                  {i.invitedBy ? `${t("console.staff.invitedBy", { name: i.invitedBy })} · ` : ""}
                  {t("console.staff.expires", { time: formatTaipei(i.expiresAt, locale, "dateTime") })}
                </p>
                <Form method="post" className="mt-3">
                  <input type="hidden" name="invitationId" value={i.id} />
                  <Button
                    type="submit"
                    size="sm"
                    variant="secondary"
                    aria-label={t("console.staff.revokeFor", { name: i.displayName })}
                    pending={navigation.state === "submitting" && navigation.formData?.get("invitationId") === i.id}
                  >
                    {t("console.staff.revoke")}
                  </Button>
                </Form>
              </li>
            ))}
          </ul>
        )}
      </section>
    </ConsolePage>
  );
}
