import { useEffect, useRef } from "react";
import { data, Form, redirect, useNavigation } from "react-router";
import { consoleAudit } from "~/adapters/console.server";
import { consoleFailure } from "~/adapters/console-failure.server";
import { authDeps, getApp } from "~/adapters/context.server";
import { ConsolePage } from "~/components/console/console-page";
import { TableScroll } from "~/components/console/table-scroll";
import { useConsoleT } from "~/components/console/use-console-t";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { buttonVariants } from "~/components/ui/button-variants";
import { Field } from "~/components/ui/field";
import { Link } from "~/components/ui/link";
import { CODE_POLICY } from "~/domain/auth/one-time-codes.server";
import { type CouponState, couponDay } from "~/domain/loyalty/coupon-state";
import {
  addMemberNote,
  cancelMemberCoupon,
  consoleMemberDetail,
  endMemberSessions,
  resendMemberEmailVerification,
  setMemberDisabled,
} from "~/domain/members/console.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { hasPermission } from "~/domain/staff/permissions";
import { storeChoices } from "~/domain/staff/store-choices.server";
import { requestNow } from "~/lib/clock.server";
import { cn } from "~/lib/cn";
import { formValues, readForm, tooManyRequestsText } from "~/lib/forms.server";
import { useLocale } from "~/lib/i18n";
import { getLocale, serverT } from "~/lib/i18n.server";
import { pick } from "~/lib/localized";
import { pageMeta } from "~/lib/meta";
import { formatLastValidDay, formatTaipei } from "~/lib/time";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/member";
import { ledgerWords } from "./ledger-words";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.members.detailTitle");

type Detail = NonNullable<Awaited<ReturnType<typeof consoleMemberDetail>>>;

function view(detail: Detail) {
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  return {
    ...detail,
    createdAt: detail.createdAt.toISOString(),
    lastLoginAt: iso(detail.lastLoginAt),
    logins: { ...detail.logins, lineSince: iso(detail.logins.lineSince) },
    consents: detail.consents.map((c) => ({ ...c, at: c.at.toISOString() })),
    sessions: { count: detail.sessions.count, lastActiveAt: iso(detail.sessions.lastActiveAt) },
    entries: detail.entries.map((e) => ({ ...e, at: e.at.toISOString() })),
    purchases: detail.purchases.map((p) => ({
      id: p.id,
      storeId: p.storeId,
      receiptNumber: p.receiptNumber,
      netAmount: p.netAmount,
      refundedAmount: p.refundedAmount,
      pointsEarned: p.pointsEarned,
      purchasedAt: p.purchasedAt.toISOString(),
    })),
    expiring: detail.expiring
      ? { points: detail.expiring.points, expiresAt: detail.expiring.expiresAt.toISOString() }
      : null,
    coupons: detail.coupons.map((c) => ({
      ...c,
      issuedAt: c.issuedAt.toISOString(),
      expiresAt: c.expiresAt.toISOString(),
      usedAt: iso(c.usedAt),
    })),
    tiers: detail.tiers.map((c) => ({ id: c.id, from: c.fromTier, to: c.toTier, at: c.createdAt.toISOString() })),
    notes: detail.notes?.map((n) => ({ ...n, at: n.at.toISOString() })) ?? null,
    messages: detail.messages.map((x) => ({ ...x, at: x.at.toISOString(), sentAt: iso(x.sentAt) })),
  };
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const actor = requirePermission(context, "member.view");
  const app = getApp(context);
  const detail = await consoleMemberDetail(app.db, actor, params.memberId, { now: requestNow(request, app.config) });
  if (!detail) throw data(null, { status: 404 });
  const search = new URL(request.url).searchParams;
  const done = search.get("done");
  const member = view(detail);
  // Cancelling a coupon asks first (`?cancel=<id>`, an unused coupon of this member's), then says what happened.
  const asking = member.canManage
    ? member.coupons.find((c) => c.id === search.get("cancel") && c.state === "unused")
    : null;
  const cancelled =
    done === "cancel-coupon"
      ? member.coupons.find((c) => c.id === search.get("coupon") && c.state === "cancelled")
      : null;
  const stores = await storeChoices(app.db, [...new Set(member.purchases.map((p) => p.storeId))]);
  const notice = DONE_NOTICES.find((d) => d === done) ?? null;
  return {
    member,
    canAudit: hasPermission(actor, "audit.view"),
    storeNames: Object.fromEntries(stores.map((s) => [s.id, pick(s.name, getLocale(request))])),
    notice,
    resent: done === "resend-verification",
    minutes: CODE_POLICY.validMinutes,
    confirmCancel: asking?.id ?? null,
    cancelled: cancelled ? { name: cancelled.name, points: cancelled.pointsCost } : null,
  };
}

/** The changes that say so above the page when they are done (`?done=`); the others have their own notice. */
const DONE_NOTICES = ["disable", "enable", "end-sessions", "note"] as const;

const INTENTS = [
  "reveal",
  "disable",
  "enable",
  "end-sessions",
  "cancel-coupon",
  "note",
  "resend-verification",
] as const;

export async function action({ request, context, params }: Route.ActionArgs) {
  const app = getApp(context);
  const actor = requirePermission(context, "member.view");
  const form = await readForm(request);
  const t = serverT(request);
  const intent = INTENTS.find((i) => i === form.get("intent"));
  if (!intent) return data({ formError: t("console.staff.error.intent") }, { status: 400 });
  const audit = consoleAudit(context, request);
  const now = requestNow(request, app.config);
  const memberId = params.memberId;
  const values = formValues(form);
  try {
    if (intent === "reveal") {
      const detail = await consoleMemberDetail(app.db, actor, memberId, { reveal: true, audit, now });
      if (!detail) throw data(null, { status: 404 });
      return { revealed: view(detail) };
    }
    if (intent === "disable" || intent === "enable") {
      await setMemberDisabled(
        app.db,
        actor,
        memberId,
        { disabled: intent === "disable", reason: String(form.get("reason") ?? "").slice(0, 1000) },
        audit,
        now,
      );
    } else if (intent === "resend-verification") {
      const sent = await resendMemberEmailVerification(authDeps(context), actor, memberId, audit, now);
      if (!sent.ok) {
        return data({ formError: tooManyRequestsText(sent.retryAfterSeconds, t), values }, { status: 429 });
      }
    } else if (intent === "end-sessions") {
      await endMemberSessions(app.db, actor, memberId, audit, now);
    } else if (intent === "cancel-coupon") {
      const couponId = String(form.get("couponId") ?? "").slice(0, 64);
      const page = `/admin/members/${encodeURIComponent(memberId)}`;
      // Not confirmed (an old page's button, a hand-made post): ask first.
      if (form.get("confirmed") !== "1") return redirect(`${page}?cancel=${encodeURIComponent(couponId)}`);
      await cancelMemberCoupon(app.db, actor, memberId, couponId, audit, now);
      return redirect(`${page}?done=cancel-coupon&coupon=${encodeURIComponent(couponId)}`);
    } else {
      await addMemberNote(app.db, actor, memberId, String(form.get("note") ?? "").slice(0, 5000), audit, now);
    }
  } catch (error) {
    // A coupon refused by the loyalty area is worded for this page: used, expired, or not (any longer) there.
    return consoleFailure(error, null, t, {
      values,
      wording: {
        coupon_used: "console.members.error.coupon_used",
        coupon_expired: "console.members.error.coupon_expired",
        "*": "console.members.error.coupon_not_found",
      },
    });
  }
  return redirect(`/admin/members/${encodeURIComponent(memberId)}?done=${intent}`);
}

/** The coupon's day, worded as the member center words it (couponDay decides which day). */
function couponLine(
  c: { state: CouponState; expiresAt: string; usedAt: string | null },
  t: ReturnType<typeof useConsoleT>,
  locale: string,
): string {
  const date = couponDay(c, locale);
  if (c.state === "unused") return t("console.members.coupon.validUntil", { date });
  if (c.state === "used") return t("console.members.coupon.usedOn", { date });
  return t("console.members.coupon.expiredOn", { date });
}

function Row({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <div>
      <dt className="text-muted">{label}</dt>
      <dd className="mt-1 break-words" data-testid={testId}>
        {children ?? "—"}
      </dd>
    </div>
  );
}

export default function ConsoleMember({ loaderData, actionData }: Route.ComponentProps) {
  const t = useConsoleT();
  const locale = useLocale();
  const form = useFormState();
  const navigation = useNavigation();
  const revealed = actionData && "revealed" in actionData ? actionData.revealed : null;
  const m = revealed ?? loaderData.member;
  const busy = (intent: string) => navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  const n = (v: number) => v.toLocaleString("en-US");
  const date = (v: string | null) => (v ? formatTaipei(v, locale, "dateTime") : "—");
  // The cancel question takes the focus when it opens.
  const confirmRef = useRef<HTMLElement>(null);
  useEffect(() => {
    if (loaderData.confirmCancel) confirmRef.current?.focus();
  }, [loaderData.confirmCancel]);
  return (
    <ConsolePage
      back={{ to: "/admin/members", label: t("console.members.back") }}
      title={m.name}
      titleTestId="member-name"
      badges={
        <>
          <span className="font-mono text-sm text-muted">{m.memberNumber}</span>
          <span className="rounded-full bg-sand px-3 py-1 text-sm">
            {t(`console.counter.tier.${m.tier}` as "console.counter.tier.basic")}
          </span>
          {m.disabled ? (
            <span
              className="rounded-full bg-danger-700/10 px-3 py-1 text-sm text-danger-800"
              data-testid="member-disabled"
            >
              {m.deleted ? t("console.members.deleted") : t("console.staff.disabledBadge")}
            </span>
          ) : null}
        </>
      }
      notices={
        <>
          {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
          {revealed ? <Alert>{t("console.members.revealedNote")}</Alert> : null}
          {loaderData.cancelled && !form.formError ? (
            <Alert tone="success">
              <span data-testid="coupon-cancelled">
                {t("console.members.couponCancelled", {
                  name: loaderData.cancelled.name,
                  points: n(loaderData.cancelled.points),
                })}
              </span>
            </Alert>
          ) : null}
          {loaderData.notice && !form.formError ? (
            <Alert tone="success">
              <span data-testid="member-done">{t(`console.members.done.${loaderData.notice}`)}</span>
            </Alert>
          ) : null}
          {loaderData.resent && !form.formError ? (
            <Alert tone="success">{t("console.members.verificationSent", { minutes: loaderData.minutes })}</Alert>
          ) : null}
        </>
      }
    >
      <div className="mt-6 grid gap-6 lg:grid-cols-[3fr_2fr]">
        <section className="rounded-2xl border border-line bg-white p-5" aria-labelledby="profile-title">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <h2 id="profile-title" className="text-lg font-semibold">
              {t("console.members.profile")}
            </h2>
            {m.canReveal && !revealed ? (
              <Form method="post">
                <Button
                  type="submit"
                  name="intent"
                  value="reveal"
                  size="sm"
                  variant="secondary"
                  pending={busy("reveal")}
                >
                  {t("console.members.reveal")}
                </Button>
              </Form>
            ) : null}
          </div>
          <dl className="mt-4 grid gap-4 text-sm sm:grid-cols-2">
            <Row label={t("console.members.col.phone")} testId="member-phone">
              <span className="font-mono">{m.phone}</span>
            </Row>
            <Row label={t("console.members.email")}>{m.email}</Row>
            {m.emailPending ? (
              <Row label={t("console.members.pendingEmail")} testId="member-pending-email">
                <span className="block">{m.pendingEmail}</span>
                {m.canManage ? (
                  <Form method="post" className="mt-2">
                    <Button
                      type="submit"
                      name="intent"
                      value="resend-verification"
                      size="sm"
                      variant="secondary"
                      pending={busy("resend-verification")}
                    >
                      {t("console.members.resendVerification")}
                    </Button>
                  </Form>
                ) : null}
              </Row>
            ) : null}
            <Row label={t("console.members.birthday")}>{m.birthday}</Row>
            <Row label={t("console.members.address")}>{m.address}</Row>
            <Row label={t("console.members.company")}>
              {m.companyName || m.taxIdNumber ? `${m.companyName ?? ""} ${m.taxIdNumber ?? ""}` : null}
            </Row>
            <Row label={t("console.members.col.since")}>{date(m.createdAt)}</Row>
            <Row label={t("console.members.lastLogin")}>{date(m.lastLoginAt)}</Row>
            <Row label={t("console.members.logins")}>
              {[
                t("console.members.login.phone"),
                m.logins.email ? t("console.members.login.email") : null,
                m.logins.line ? "LINE" : null,
                m.logins.passkeys ? t("console.members.login.passkeys", { count: m.logins.passkeys }) : null,
              ]
                .filter(Boolean)
                .join("、")}
            </Row>
            <Row label={t("console.members.consents")}>
              {m.consents
                .map(
                  (c) =>
                    `${t(`console.members.consent.${c.kind}` as "console.members.consent.terms")} ${c.granted ? t("console.members.consent.yes") : t("console.members.consent.no")}（v${c.version}）`,
                )
                .join("；")}
            </Row>
            <Row label={t("console.members.sessions")} testId="member-sessions">
              {t("console.members.sessionsValue", { count: m.sessions.count, time: date(m.sessions.lastActiveAt) })}
            </Row>
          </dl>
        </section>

        <section className="space-y-4 rounded-2xl border border-line bg-white p-5" aria-labelledby="points-title">
          <h2 id="points-title" className="text-lg font-semibold">
            {t("console.members.points")}
          </h2>
          <p className="font-serif text-4xl font-semibold tabular-nums" data-testid="member-balance">
            {n(m.balance)}
          </p>
          <p className="text-sm" data-testid="member-expiring">
            <span className="text-muted">{t("console.counter.member.expiring")}</span>{" "}
            {m.expiring
              ? t("console.counter.member.expiringValue", {
                  points: n(m.expiring.points),
                  date: formatLastValidDay(m.expiring.expiresAt, locale),
                })
              : t("console.counter.member.noExpiring")}
          </p>
          {m.canAdjust && !m.deleted ? (
            <Link to={`/admin/members/${m.id}/adjust`} className="inline-block text-sm underline underline-offset-4">
              {t("console.adjust.title")}
            </Link>
          ) : null}
          {m.canManage && !m.deleted ? (
            <>
              <Form
                method="post"
                className="space-y-3 border-t border-line pt-4"
                key={m.disabled ? "enable" : "disable"}
              >
                <Field
                  label={m.disabled ? t("console.members.enableReason") : t("console.members.disableReason")}
                  errors={form.errors("reason")}
                  inputProps={{ name: "reason", required: true, maxLength: 200, defaultValue: form.value("reason") }}
                />
                <label className="flex items-start gap-2 text-sm">
                  <input type="checkbox" required className="mt-1 size-4 shrink-0 accent-brand-700" />
                  <span>
                    {m.disabled
                      ? t("console.members.confirmEnable", { name: m.name })
                      : t("console.members.confirmDisable", { name: m.name })}
                  </span>
                </label>
                <Button
                  type="submit"
                  name="intent"
                  value={m.disabled ? "enable" : "disable"}
                  variant={m.disabled ? "primary" : "danger"}
                  pending={busy(m.disabled ? "enable" : "disable")}
                >
                  {m.disabled ? t("console.members.enable") : t("console.members.disable")}
                </Button>
              </Form>
              <Form method="post" className="border-t border-line pt-4">
                <Button
                  type="submit"
                  name="intent"
                  value="end-sessions"
                  variant="secondary"
                  pending={busy("end-sessions")}
                >
                  {t("console.members.endSessions")}
                </Button>
              </Form>
            </>
          ) : null}
        </section>
      </div>

      <section className="mt-6 rounded-2xl border border-line bg-white p-5" aria-labelledby="coupons-title">
        <h2 id="coupons-title" className="text-lg font-semibold">
          {t("console.members.coupons")}
        </h2>
        {m.coupons.length === 0 ? (
          <p className="mt-2 text-sm text-muted">{t("console.members.nothingYet")}</p>
        ) : (
          <ul className="mt-3 divide-y divide-line" data-testid="member-coupons">
            {m.coupons.map((c) => (
              <li key={c.id} className="flex flex-wrap items-center justify-between gap-3 py-3 text-sm">
                <span>
                  <span className="font-medium">{c.name}</span>
                  <span className="ml-2 text-muted" data-testid="coupon-state">
                    <span
                      className={cn(
                        "mr-2 inline-block rounded-full px-2 py-0.5 text-xs font-medium",
                        c.state === "unused" ? "bg-success-50 text-success-700" : "bg-sand text-ink",
                      )}
                    >
                      {t(`console.members.coupon.${c.state}`)}
                    </span>
                    {`${n(c.pointsCost)} ${t("console.members.pointsUnit")}`}
                    {c.state === "cancelled" ? null : ` · ${couponLine(c, t, locale)}`}
                  </span>
                </span>
                {c.state === "unused" && m.canManage && !m.deleted ? (
                  loaderData.confirmCancel === c.id ? (
                    <section
                      ref={confirmRef}
                      tabIndex={-1}
                      aria-labelledby="cancel-coupon-question"
                      className="w-full rounded-xl border border-danger-700/30 bg-danger-700/5 p-3"
                      data-testid="cancel-coupon-confirm"
                    >
                      <p id="cancel-coupon-question" className="font-medium">
                        {t("console.members.cancelCouponAsk", { name: c.name, points: n(c.pointsCost) })}
                      </p>
                      <Form method="post" className="mt-3 flex flex-wrap items-center gap-3">
                        <input type="hidden" name="couponId" value={c.id} />
                        <input type="hidden" name="confirmed" value="1" />
                        <Button
                          type="submit"
                          name="intent"
                          value="cancel-coupon"
                          size="sm"
                          variant="danger"
                          pending={busy("cancel-coupon")}
                        >
                          {t("console.members.cancelCouponConfirm", { points: n(c.pointsCost) })}
                        </Button>
                        <Link to={`/admin/members/${m.id}`} className="text-sm underline underline-offset-4">
                          {t("console.members.cancelCouponKeep")}
                        </Link>
                      </Form>
                    </section>
                  ) : (
                    <Link
                      to={`/admin/members/${m.id}?cancel=${c.id}`}
                      preventScrollReset
                      aria-label={t("console.members.cancelCouponFor", { name: c.name })}
                      className={buttonVariants({ variant: "secondary", size: "sm" })}
                    >
                      {t("console.members.cancelCoupon")}
                    </Link>
                  )
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </section>

      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <section className="rounded-2xl border border-line bg-white p-5" aria-labelledby="ledger-title">
          <h2 id="ledger-title" className="text-lg font-semibold">
            {t("console.members.ledger")}
          </h2>
          {m.entries.length === 0 ? <p className="mt-2 text-sm text-muted">{t("console.members.nothingYet")}</p> : null}
          <ol className="mt-3 divide-y divide-line text-sm" data-testid="member-ledger">
            {m.entries.map((e) => {
              const words = ledgerWords(e, t, locale);
              return (
                <li key={e.id} className="flex justify-between gap-3 py-2">
                  <span>
                    {words.kind}
                    {words.reason ? <span className="ml-2 text-muted">{words.reason}</span> : null}
                  </span>
                  <span className="shrink-0 tabular-nums">
                    {e.amount > 0 ? `+${n(e.amount)}` : n(e.amount)} · {formatTaipei(e.at, locale, "date")}
                  </span>
                </li>
              );
            })}
          </ol>
        </section>
        <section className="rounded-2xl border border-line bg-white p-5" aria-labelledby="purchases-title">
          <h2 id="purchases-title" className="text-lg font-semibold">
            {t("console.members.purchases")}
          </h2>
          {m.purchases.length === 0 ? (
            <p className="mt-2 text-sm text-muted">{t("console.members.nothingYet")}</p>
          ) : null}
          <ol className="mt-3 divide-y divide-line text-sm">
            {m.purchases.map((p) => (
              <li key={p.id} className="flex justify-between gap-3 py-2">
                <span>
                  {loaderData.storeNames[p.storeId] ?? p.storeId}{" "}
                  <span className="font-mono text-muted">{p.receiptNumber}</span>
                </span>
                <span className="shrink-0 tabular-nums">
                  NT$ {n(p.netAmount - p.refundedAmount)} · {formatTaipei(p.purchasedAt, locale, "date")}
                </span>
              </li>
            ))}
          </ol>
          {m.tiers.length ? (
            <>
              <h3 className="mt-4 font-semibold">{t("console.members.tierHistory")}</h3>
              <ol className="mt-2 text-sm">
                {m.tiers.map((c) => (
                  <li key={c.id}>
                    {t(`console.counter.tier.${c.from}` as "console.counter.tier.basic")} →{" "}
                    {t(`console.counter.tier.${c.to}` as "console.counter.tier.basic")} ·{" "}
                    {formatTaipei(c.at, locale, "date")}
                  </li>
                ))}
              </ol>
            </>
          ) : null}
        </section>
      </div>

      <section className="mt-6 rounded-2xl border border-line bg-white p-5" aria-labelledby="messages-title">
        <h2 id="messages-title" className="text-lg font-semibold">
          {t("console.messages.member.title")}
        </h2>
        {m.messages.length === 0 ? (
          <p className="mt-2 text-sm text-muted">{t("console.messages.member.empty")}</p>
        ) : (
          <TableScroll labelledBy="messages-title" className="mt-3">
            <table className="w-full min-w-[36rem] text-left text-sm" data-testid="member-messages">
              <thead className="border-b border-line text-muted">
                <tr>
                  {(["when", "what", "channel", "status"] as const).map((col) => (
                    <th key={col} scope="col" className="py-2 pr-4 font-medium">
                      {t(`console.messages.member.col.${col}`)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-line">
                {m.messages.map((x) => (
                  <tr key={x.id} data-testid="member-message">
                    <td className="py-2 pr-4 tabular-nums">{formatTaipei(x.sentAt ?? x.at, locale, "dateTime")}</td>
                    <td className="py-2 pr-4 break-words">
                      {x.campaign ?? t(`console.messages.kind.${x.kind}` as "console.messages.kind.welcome")}
                    </td>
                    <td className="py-2 pr-4">
                      {x.channel ? t(`console.messages.channel.${x.channel}` as "console.messages.channel.line") : "—"}
                    </td>
                    <td className="py-2 pr-4">
                      {t(`console.messages.results.${x.status}` as "console.messages.results.sent")}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>

      <section className="mt-6 rounded-2xl border border-line bg-white p-5" aria-labelledby="notes-title">
        <div className="flex flex-wrap items-baseline justify-between gap-3">
          <h2 id="notes-title" className="text-lg font-semibold">
            {t("console.members.notes")}
          </h2>
          {loaderData.canAudit ? (
            <Link
              to={`/admin/audit?targetType=member&targetId=${m.id}`}
              className="text-sm underline underline-offset-4"
            >
              {t("console.members.trail")}
            </Link>
          ) : null}
        </div>
        {m.canReveal ? (
          <Form method="post" className="mt-3 space-y-3">
            <Field
              label={t("console.members.note")}
              errors={form.errors("note")}
              inputProps={{ name: "note", maxLength: 1000, defaultValue: form.value("note") }}
            />
            <Button type="submit" name="intent" value="note" size="sm" pending={busy("note")}>
              {t("console.members.addNote")}
            </Button>
          </Form>
        ) : null}
        {m.notes ? (
          <ul className="mt-4 space-y-2 text-sm" data-testid="member-notes">
            {m.notes.map((note) => (
              <li key={note.id} className="rounded-xl bg-sand/50 p-3">
                <p className="whitespace-pre-wrap">{note.body}</p>
                <p className="mt-1 text-xs text-muted">
                  {note.author ?? "—"} · {formatTaipei(note.at, locale, "dateTime")}
                </p>
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-3 text-sm text-muted" data-testid="member-notes-hidden">
            {t("console.members.notesHidden")}
          </p>
        )}
      </section>
    </ConsolePage>
  );
}
