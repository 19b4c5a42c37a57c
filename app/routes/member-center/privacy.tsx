import { data, Form, useNavigation } from "react-router";
import { z } from "zod";
import { getApp, toastSettings } from "~/adapters/context.server";
import { requireMember } from "~/adapters/current-member.server";
import { AccountNav, AccountSection } from "~/components/account/account-nav";
import { Page } from "~/components/layout/page";
import { Button, buttonVariants } from "~/components/ui/button";
import { CheckboxField } from "~/components/ui/checkbox";
import { Link } from "~/components/ui/link";
import { setEinvoiceSharing } from "~/domain/einvoice/einvoice.server";
import { currentConsents, lineReach, marketingHistory } from "~/domain/members/privacy.server";
import { marketingOf, setMarketingPreferences } from "~/domain/members/profile-update.server";
import { readForm } from "~/lib/forms.server";
import { type MessageKey, useT } from "~/lib/i18n";
import { getLocale, routeMessages } from "~/lib/i18n.server";
import { links } from "~/lib/links";
import { pageMeta } from "~/lib/meta";
import { formatTaipei } from "~/lib/time";
import { redirectWithToast } from "~/lib/toast.server";
import type { Route } from "./+types/privacy";

/** Which form was sent: the marketing channels (no intent) or the carrier switch (ADR 041); anything else is a 400. */
const privacyForm = z.object({
  intent: z.enum(["marketing", "einvoice"]),
  einvoiceSharing: z.literal("on").optional(),
});

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "account.privacy.title");

export async function loader({ request, context }: Route.LoaderArgs) {
  const session = requireMember(context, request);
  const locale = getLocale(request);
  const db = getApp(context).db;
  const [consents, history, line] = await Promise.all([
    currentConsents(db, session.userId),
    marketingHistory(db, session.userId),
    lineReach(db, session.userId),
  ]);
  return {
    line,
    history: history.map((h) => ({
      kind: h.kind,
      granted: h.granted,
      source: h.source,
      at: formatTaipei(h.at, locale, "dateTime"),
    })),
    messages: routeMessages(locale, "account.nav.", "account.privacy."),
    marketing: marketingOf(session.member),
    einvoice: {
      sharing: session.member.einvoiceSharing,
      carrier: session.member.einvoiceCarrier,
      taxId: session.member.taxIdNumber,
    },
    consents: consents.map((c) => ({
      kind: c.kind,
      granted: c.granted,
      version: c.version,
      at: formatTaipei(c.at, locale, "date"),
    })),
  };
}

/** Marketing opt-in/out per channel for the session's member, effective at once (recorded as consents). */
export async function action({ request, context }: Route.ActionArgs) {
  const session = requireMember(context, request);
  const app = getApp(context);
  const form = await readForm(request);
  const sent = privacyForm.safeParse({
    intent: form.get("intent") ?? "marketing",
    einvoiceSharing: form.get("einvoiceSharing") ?? undefined,
  });
  if (!sent.success) throw data(null, { status: 400, statusText: "Bad Request" });
  if (sent.data.intent === "einvoice") {
    const sharing = sent.data.einvoiceSharing === "on";
    await setEinvoiceSharing(app.db, { memberId: session.member.id, sharing, ip: app.ip });
    return redirectWithToast(toastSettings(context), `${links.memberPrivacy()}#einvoice`, {
      type: "success",
      message: sharing ? "notice.einvoiceSharingOn" : "notice.einvoiceSharingOff",
    });
  }
  await setMarketingPreferences(app.db, {
    memberId: session.member.id,
    userId: session.userId,
    from: marketingOf(session.member),
    to: {
      sms: form.get("marketingSms") === "on",
      email: form.get("marketingEmail") === "on",
      line: form.get("marketingLine") === "on",
    },
    ip: app.ip,
  });
  return redirectWithToast(toastSettings(context), links.memberPrivacy(), {
    type: "success",
    message: "notice.marketingSaved",
  });
}

export default function PrivacyCenterPage({ loaderData }: Route.ComponentProps) {
  const t = useT(loaderData.messages);
  const pending = useNavigation().state === "submitting";
  const { marketing, einvoice } = loaderData;
  const onRecord = [
    einvoice.carrier ? t("account.privacy.einvoice.carrier", { carrier: einvoice.carrier }) : null,
    einvoice.taxId ? t("account.privacy.einvoice.taxId", { taxId: einvoice.taxId }) : null,
  ].filter(Boolean);
  return (
    <Page title={t("account.privacy.title")} lead={t("account.privacy.lead")} width="narrow">
      <AccountNav t={t} />
      <div className="space-y-6">
        <AccountSection title={t("account.privacy.consents.title")} id="consents">
          {loaderData.consents.length === 0 ? (
            <p className="text-muted">{t("account.privacy.consents.empty")}</p>
          ) : (
            <ul className="divide-y divide-line" data-testid="consent-list">
              {loaderData.consents.map((c) => (
                <li
                  key={c.kind}
                  className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-3 first:pt-0 last:pb-0"
                >
                  <span className="font-medium">{t(`account.privacy.consents.kind.${c.kind}` as MessageKey)}</span>
                  <span className="text-sm text-muted">
                    <span className={c.granted ? "font-medium text-success-700" : "font-medium text-ink"}>
                      {c.granted ? t("account.privacy.consents.granted") : t("account.privacy.consents.withdrawn")}
                    </span>
                    {" · "}
                    {t("account.privacy.consents.version", { version: c.version })}
                    {" · "}
                    <time>{c.at}</time>
                  </span>
                </li>
              ))}
            </ul>
          )}
        </AccountSection>

        <AccountSection
          title={t("account.privacy.marketing.title")}
          lead={t("account.privacy.marketing.lead")}
          id="marketing"
        >
          <Form method="post" className="space-y-5">
            <div className="flex flex-wrap gap-6">
              <CheckboxField
                name="marketingSms"
                label={t("account.privacy.consents.kind.marketing_sms")}
                defaultChecked={marketing.sms}
              />
              <CheckboxField
                name="marketingEmail"
                label={t("account.privacy.consents.kind.marketing_email")}
                defaultChecked={marketing.email}
              />
              <CheckboxField
                name="marketingLine"
                label={t("account.privacy.consents.kind.marketing_line")}
                defaultChecked={marketing.line}
              />
            </div>
            <Button type="submit" variant="secondary" pending={pending}>
              {t("account.privacy.marketing.save")}
            </Button>
          </Form>
        </AccountSection>

        <AccountSection
          title={t("account.privacy.einvoice.title")}
          lead={t("account.privacy.einvoice.lead")}
          id="einvoice"
        >
          <Form method="post" className="space-y-5">
            <input type="hidden" name="intent" value="einvoice" />
            <CheckboxField
              name="einvoiceSharing"
              label={t("account.privacy.einvoice.share")}
              defaultChecked={einvoice.sharing}
            />
            <p className="text-sm text-muted" data-testid="einvoice-on-record">
              {onRecord.length > 0
                ? t("account.privacy.einvoice.onRecord", { what: onRecord.join(" · ") })
                : t("account.privacy.einvoice.nothing")}
            </p>
            <Button type="submit" variant="secondary" pending={pending}>
              {t("account.privacy.einvoice.save")}
            </Button>
          </Form>
        </AccountSection>

        <AccountSection
          title={t("account.privacy.notices.title")}
          lead={t("account.privacy.notices.lead")}
          id="notices"
        >
          <div className="space-y-5">
            <div>
              <h3 className="font-medium">{t("account.privacy.line.title")}</h3>
              <p className="mt-1 text-sm text-muted" data-testid="line-reach">
                {t(
                  loaderData.line === "following"
                    ? "account.privacy.line.following"
                    : loaderData.line === "not-following"
                      ? "account.privacy.line.notFollowing"
                      : "account.privacy.line.notLinked",
                )}
              </p>
            </div>
            <div>
              <h3 className="font-medium">{t("account.privacy.history.title")}</h3>
              {loaderData.history.length === 0 ? (
                <p className="mt-1 text-sm text-muted">{t("account.privacy.history.empty")}</p>
              ) : (
                <ul className="mt-2 divide-y divide-line text-sm" data-testid="marketing-history">
                  {loaderData.history.map((h) => (
                    <li
                      key={`${h.at}-${h.kind}-${h.granted}`}
                      className="flex flex-wrap justify-between gap-x-4 gap-y-1 py-2"
                    >
                      <span>
                        {t(`account.privacy.consents.kind.${h.kind}` as MessageKey)} ·{" "}
                        <span className="font-medium">
                          {h.granted ? t("account.privacy.history.granted") : t("account.privacy.history.withdrawn")}
                        </span>
                      </span>
                      <span className="text-muted">
                        {t(`account.privacy.history.source.${h.source ?? "unknown"}` as MessageKey)} ·{" "}
                        <time>{h.at}</time>
                      </span>
                    </li>
                  ))}
                </ul>
              )}
            </div>
          </div>
        </AccountSection>

        <AccountSection title={t("account.privacy.export.title")} lead={t("account.privacy.export.lead")} id="export">
          <a
            href={links.memberDataExport()}
            download
            className={buttonVariants({ variant: "secondary" })}
            data-testid="export-link"
          >
            {t("account.privacy.export.button")}
          </a>
        </AccountSection>

        <AccountSection
          title={t("account.privacy.delete.title")}
          lead={t("account.privacy.delete.lead")}
          id="delete"
          tone="danger"
        >
          <Link to={links.deleteAccount()} className={buttonVariants({ variant: "secondary" })}>
            {t("account.privacy.delete.link")}
          </Link>
        </AccountSection>
      </div>
    </Page>
  );
}
