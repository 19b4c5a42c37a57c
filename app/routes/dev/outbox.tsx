import { Form } from "react-router";
import { getApp } from "~/adapters/context.server";
import { Page } from "~/components/layout/page";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Link } from "~/components/ui/link";
import { SelectField } from "~/components/ui/select";
import { MessageRejectedError } from "~/domain/messaging/errors";
import { type OutboxMessage, readOutbox } from "~/domain/messaging/outbox.server";
import { notFound } from "~/lib/http.server";
import { useT } from "~/lib/i18n";
import { getLocale, routeMessages } from "~/lib/i18n.server";
import { links } from "~/lib/links";
import { pageMeta } from "~/lib/meta";
import { formatTaipei } from "~/lib/time";
import type { Route } from "./+types/outbox";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, "devOutbox.title", "devOutbox.lead"),
  { name: "robots", content: "noindex" },
];

const SHOWN = 50;

/**
 * The development outbox: text messages and e-mails the outbox providers kept instead of sending.
 * Never in production (404), whatever the providers are.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const app = getApp(context);
  if (app.config.isProduction) notFound(request);
  const locale = getLocale(request);
  const url = new URL(request.url);
  const to = url.searchParams.get("to")?.trim() ?? "";
  const channelParam = url.searchParams.get("channel");
  const channel = channelParam === "sms" || channelParam === "email" ? channelParam : undefined;

  let items: OutboxMessage[] = [];
  let invalidTo = false;
  try {
    items = await readOutbox(app.db, { to: to || undefined, channel, limit: SHOWN });
  } catch (error) {
    if (!(error instanceof MessageRejectedError)) throw error;
    invalidTo = true;
  }
  return {
    items: items.map((item) => ({
      id: item.id,
      channel: item.channel,
      to: item.to,
      from: item.from,
      subject: item.subject,
      body: item.body,
      html: item.html,
      headers: Object.entries(item.headers ?? {}),
      sentAt: formatTaipei(item.createdAt, locale, "dateTime"),
      sentAtIso: item.createdAt.toISOString(),
    })),
    filter: { to, channel: channel ?? "all" },
    invalidTo,
    setup: { sms: app.config.sms.provider, email: app.config.email.provider },
    messages: routeMessages(locale, "devOutbox."),
  };
}

export default function DevOutboxPage({ loaderData }: Route.ComponentProps) {
  const t = useT(loaderData.messages);
  const { items, filter, setup } = loaderData;
  const channelLabel = (channel: "sms" | "email") => t(`devOutbox.channel.${channel}`);

  return (
    <Page title={t("devOutbox.title")} lead={t("devOutbox.lead")}>
      <Card className="grid gap-6 lg:grid-cols-[1fr_2fr]">
        <section aria-labelledby="outbox-setup">
          <h2 id="outbox-setup" className="font-semibold">
            {t("devOutbox.setup")}
          </h2>
          <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">
            <dt className="text-muted">{t("devOutbox.smsProvider")}</dt>
            <dd data-testid="sms-provider">
              <span className="font-mono">{setup.sms}</span>
              {setup.sms === "outbox" ? null : <span className="text-muted"> · {t("devOutbox.notCaptured")}</span>}
            </dd>
            <dt className="text-muted">{t("devOutbox.emailTransport")}</dt>
            <dd data-testid="email-transport">
              <span className="font-mono">{setup.email}</span>
              {setup.email === "outbox" ? null : <span className="text-muted"> · {t("devOutbox.notCaptured")}</span>}
            </dd>
          </dl>
        </section>
        <Form method="get" className="grid gap-4 sm:grid-cols-[2fr_1fr] sm:items-start">
          <Field
            label={t("devOutbox.filterTo")}
            description={t("devOutbox.filterToHint")}
            errors={loaderData.invalidTo ? [t("devOutbox.invalidRecipient")] : null}
            inputProps={{ name: "to", defaultValue: filter.to, autoComplete: "off", spellCheck: false }}
          />
          <SelectField
            label={t("devOutbox.filterChannel")}
            name="channel"
            defaultValue={filter.channel}
            options={[
              { value: "all", label: t("devOutbox.channelAll") },
              { value: "sms", label: channelLabel("sms") },
              { value: "email", label: channelLabel("email") },
            ]}
          />
          <div className="flex flex-wrap gap-3 sm:col-span-2">
            <Button type="submit">{t("devOutbox.filterSubmit")}</Button>
            {filter.to || filter.channel !== "all" ? (
              <Button asChild variant="ghost">
                <Link to={links.devOutbox()}>{t("devOutbox.filterClear")}</Link>
              </Button>
            ) : null}
          </div>
        </Form>
      </Card>

      <h2 className="mt-10 text-xl font-semibold">{t("devOutbox.count", { count: items.length })}</h2>
      {items.length === 0 ? (
        <p className="mt-4 text-muted" data-testid="outbox-empty">
          {t("devOutbox.empty")}
        </p>
      ) : (
        <ol className="mt-4 space-y-4" data-testid="outbox">
          {items.map((item) => (
            <li key={item.id}>
              <Card className="p-5 sm:p-6" data-testid="outbox-message" data-channel={item.channel}>
                <article aria-labelledby={`message-${item.id}`}>
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <h3 id={`message-${item.id}`} className="min-w-0 font-semibold break-words">
                      <span className="mr-2 inline-block rounded-full bg-brand-50 px-2.5 py-0.5 align-middle text-xs font-medium text-brand-800">
                        {channelLabel(item.channel)}
                      </span>
                      {item.subject ? (
                        <span data-testid="outbox-subject">{item.subject}</span>
                      ) : (
                        <span className="font-mono">{item.to}</span>
                      )}
                    </h3>
                    <time dateTime={item.sentAtIso} className="text-sm text-muted">
                      {item.sentAt}
                    </time>
                  </div>
                  <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
                    <dt className="text-muted">{t("devOutbox.to")}</dt>
                    <dd className="font-mono break-all" data-testid="outbox-to">
                      {item.to}
                    </dd>
                    {item.from ? (
                      <>
                        <dt className="text-muted">{t("devOutbox.from")}</dt>
                        <dd className="break-all">{item.from}</dd>
                      </>
                    ) : null}
                    {/* Extra headers as sent (List-Unsubscribe on marketing, RFC 8058). */}
                    {item.headers.map(([name, value]) => (
                      <div key={name} className="contents">
                        <dt className="font-mono text-muted">{name}</dt>
                        <dd className="font-mono break-all" data-testid="outbox-header" data-name={name}>
                          {value}
                        </dd>
                      </div>
                    ))}
                  </dl>
                  {item.channel === "sms" ? (
                    <p
                      className="mt-4 rounded-2xl bg-sand px-4 py-3 whitespace-pre-wrap break-words"
                      data-testid="outbox-body"
                    >
                      {item.body}
                    </p>
                  ) : (
                    <>
                      {item.html ? (
                        <div className="mt-4">
                          <p className="text-sm font-medium">{t("devOutbox.htmlPreview")}</p>
                          {/* No scripts, no same-origin access, no forms: the e-mail is only looked at. */}
                          <iframe
                            sandbox=""
                            srcDoc={item.html}
                            title={t("devOutbox.htmlPreviewTitle", { subject: item.subject ?? "" })}
                            className="mt-2 h-[36rem] w-full rounded-2xl border border-line bg-paper"
                            data-testid="outbox-html"
                          />
                        </div>
                      ) : null}
                      <details className="mt-4">
                        <summary className="cursor-pointer text-sm font-medium">{t("devOutbox.plainText")}</summary>
                        <pre
                          className="mt-2 overflow-x-auto rounded-2xl bg-sand px-4 py-3 text-sm whitespace-pre-wrap break-words"
                          data-testid="outbox-body"
                        >
                          {item.body}
                        </pre>
                      </details>
                    </>
                  )}
                </article>
              </Card>
            </li>
          ))}
        </ol>
      )}
    </Page>
  );
}
