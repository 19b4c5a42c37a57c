import { data, Form, useNavigation } from "react-router";
import { getApp } from "~/adapters/context.server";
import { Page } from "~/components/layout/page";
import { Button } from "~/components/ui/button";
import { CheckboxField } from "~/components/ui/checkbox";
import { Link } from "~/components/ui/link";
import { checkUnsubscribeToken } from "~/domain/member-messages/unsubscribe.server";
import { refuseMarketing } from "~/domain/members/profile-update.server";
import { requestNow } from "~/lib/clock.server";
import { readForm } from "~/lib/forms.server";
import { useT } from "~/lib/i18n";
import { getLocale, routeMessages } from "~/lib/i18n.server";
import { links } from "~/lib/links";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/unsubscribe";

/**
 * The no-login refusal of marketing e-mail (issue 16 item 5, ADR 034): the visible link of every marketing
 * e-mail and its RFC 8058 one-click address. A GET only asks (link scanners must not unsubscribe anyone); the
 * confirmation, or the mail provider's `List-Unsubscribe=One-Click` POST, refuses at once — recorded with time,
 * channel and how. The signed token is the only credential; the page says nothing about whose it is.
 */
export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, "unsubscribe.title"),
  { name: "robots", content: "noindex" },
];

export function headers() {
  // The token is in the address: no referrer to other sites, never cached.
  return { "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" };
}

type State = "ask" | "done" | "invalid" | "expired";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const app = getApp(context);
  const messages = routeMessages(getLocale(request), "unsubscribe.");
  const check = checkUnsubscribeToken(app.config.secrets.session, params.token, requestNow(request, app.config));
  if (!check.ok) return data({ messages, state: check.reason as State, all: false }, { status: 400 });
  return { messages, state: "ask" as State, all: false };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const app = getApp(context);
  const now = requestNow(request, app.config);
  const messages = routeMessages(getLocale(request), "unsubscribe.");
  const form = await readForm(request);
  const check = checkUnsubscribeToken(app.config.secrets.session, params.token, now);
  if (!check.ok) return data({ messages, state: check.reason as State, all: false }, { status: 400 });
  const oneClick = form.get("List-Unsubscribe") === "One-Click";
  const all = !oneClick && form.get("all") === "on";
  const source = oneClick ? "one-click" : "unsubscribe-link";
  for (const channel of all ? (["email", "sms", "line"] as const) : (["email"] as const)) {
    await refuseMarketing(app.db, { memberId: check.memberId, channel, source, ip: app.ip }, now);
  }
  return { messages, state: "done" as State, all };
}

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const result = actionData ?? loaderData;
  const t = useT(result.messages);
  const pending = useNavigation().state === "submitting";
  const { state } = result;
  const title =
    state === "done"
      ? t("unsubscribe.done.title")
      : state === "invalid"
        ? t("unsubscribe.invalid.title")
        : state === "expired"
          ? t("unsubscribe.expired.title")
          : t("unsubscribe.title");
  return (
    <Page title={title} width="narrow">
      <div className="rounded-3xl border border-line bg-white p-6 sm:p-8" data-testid={`unsubscribe-${state}`}>
        {state === "ask" ? (
          <Form method="post" className="space-y-6">
            <p className="leading-relaxed">{t("unsubscribe.lead")}</p>
            <CheckboxField name="all" label={t("unsubscribe.all")} />
            <Button type="submit" pending={pending}>
              {t("unsubscribe.confirm")}
            </Button>
          </Form>
        ) : state === "done" ? (
          <div className="space-y-3" role="status">
            <p className="leading-relaxed">{t("unsubscribe.done.body")}</p>
            {result.all ? <p className="leading-relaxed">{t("unsubscribe.done.all")}</p> : null}
          </div>
        ) : (
          <p className="leading-relaxed">
            {state === "expired" ? t("unsubscribe.expired.body") : t("unsubscribe.invalid.body")}
          </p>
        )}
        <p className="mt-6 text-sm">
          <Link to={links.memberPrivacy()} className="underline underline-offset-4">
            {t("unsubscribe.privacyLink")}
          </Link>
        </p>
      </div>
    </Page>
  );
}
