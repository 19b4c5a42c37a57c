import { Form, Link } from "react-router";
import { Page } from "~/components/layout/page";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { formatTaiwanMobile } from "~/domain/members/taiwan";
import { type MessageKey, useT } from "~/lib/i18n";
import { links } from "~/lib/links";
import { requireMember } from "~/lib/member-session.server";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "page.memberCenter.title");

/** The member center (logged-in only). The card, points and coupons arrive with the member-center issue. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { member } = requireMember(context, request);
  return {
    name: member.nameZh,
    memberNumber: member.memberNumber,
    level: member.memberLevel,
    phone: formatTaiwanMobile(member.phoneNumber),
    email: member.email,
    pendingEmail: member.pendingEmail,
  };
}

export default function MemberCenterPage({ loaderData }: Route.ComponentProps) {
  const t = useT();
  return (
    <Page title={t("member.greeting", { name: loaderData.name })} eyebrow={t("page.memberCenter.title")}>
      {loaderData.pendingEmail ? (
        <Alert className="mb-6">
          {t("member.pendingEmail", { email: loaderData.pendingEmail })}{" "}
          <Link to={links.verifyEmail()} className="font-semibold underline underline-offset-4">
            {t("member.verifyNow")}
          </Link>
        </Alert>
      ) : null}
      <div className="max-w-md rounded-3xl bg-ink p-6 text-paper shadow-sm" data-testid="member-card">
        <p className="text-sm tracking-[0.2em] text-brand-300">{t(`member.level.${loaderData.level}` as MessageKey)}</p>
        <p className="mt-3 font-serif text-2xl">{loaderData.name}</p>
        <dl className="mt-6 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-paper/70">{t("member.number")}</dt>
          <dd className="font-mono tracking-wider" data-testid="member-number">
            {loaderData.memberNumber}
          </dd>
          <dt className="text-paper/70">{t("auth.phone.label")}</dt>
          <dd>{loaderData.phone}</dd>
          {loaderData.email ? (
            <>
              <dt className="text-paper/70">{t("auth.email.label")}</dt>
              <dd>{loaderData.email}</dd>
            </>
          ) : null}
        </dl>
      </div>
      <Form method="post" action={links.logout()} className="mt-8">
        <Button type="submit" variant="secondary">
          {t("auth.logout")}
        </Button>
      </Form>
    </Page>
  );
}
