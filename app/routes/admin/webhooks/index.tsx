import { data, Form, useNavigation } from "react-router";
import { consoleAudit } from "~/adapters/console.server";
import { consoleFailure } from "~/adapters/console-failure.server";
import { getApp } from "~/adapters/context.server";
import { ConsoleList, RowLink } from "~/components/console/console-list";
import { ConsolePage } from "~/components/console/console-page";
import { DetailSection } from "~/components/console/detail-section";
import { PageNotices } from "~/components/console/staff/post-forms";
import { useConsoleT } from "~/components/console/use-console-t";
import { EndpointFields, listValues } from "~/components/console/webhooks/endpoint-fields";
import { SecretShown } from "~/components/console/webhooks/secret-shown";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Link } from "~/components/ui/link";
import { requirePermission } from "~/domain/staff/guard.server";
import { createEndpoint, listEndpoints } from "~/domain/webhooks/endpoints.server";
import { parseEndpointForm } from "~/domain/webhooks/input";
import { requestNow } from "~/lib/clock.server";
import { formValues, readForm } from "~/lib/forms.server";
import { useLocale } from "~/lib/i18n";
import { serverT } from "~/lib/i18n.server";
import { pageMeta } from "~/lib/meta";
import { formatTaipei } from "~/lib/time";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/index";
import { problemMessages } from "./webhooks";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.webhooks.title");

/** Outbound webhooks (admins, `webhooks.manage`; ADR 054): the endpoints, and a new one registered. */
export async function loader({ context }: Route.LoaderArgs) {
  requirePermission(context, "webhooks.manage");
  const app = getApp(context);
  return { endpoints: await listEndpoints(app.db), development: !app.config.isProduction };
}

export async function action({ request, context }: Route.ActionArgs) {
  const actor = requirePermission(context, "webhooks.manage");
  const app = getApp(context);
  const t = serverT(request);
  const form = await readForm(request);
  const values = listValues(form, formValues(form));
  const parsed = parseEndpointForm(form);
  if (!parsed.ok) {
    return data(
      { errors: problemMessages(parsed.problems, t), values, formError: t("console.webhooks.error.form") },
      { status: 400 },
    );
  }
  try {
    const { endpoint, secret } = await createEndpoint(
      app.db,
      actor,
      parsed.value,
      { production: app.config.isProduction },
      app.config.secrets.session,
      consoleAudit(context, request),
      requestNow(request, app.config),
    );
    return { created: { id: endpoint.id, secret } };
  } catch (error) {
    return consoleFailure(error, form, t, { values });
  }
}

export default function Webhooks({ loaderData, actionData }: Route.ComponentProps) {
  const t = useConsoleT();
  const locale = useLocale();
  const form = useFormState();
  const pending = useNavigation().state === "submitting";
  const created = actionData && "created" in actionData ? actionData.created : null;
  const stopped = loaderData.endpoints.filter((e) => e.disabledReason === "failing");
  return (
    <ConsolePage
      width="5xl"
      title={t("console.webhooks.title")}
      lead={t("console.webhooks.lead")}
      notices={<PageNotices done={null} error={form.formError} />}
    >
      {stopped.length > 0 ? (
        <Alert tone="error" title={t("console.webhooks.stoppedTitle")} className="mt-6">
          {t("console.webhooks.stoppedBody", { urls: stopped.map((e) => e.url).join("、") })}
        </Alert>
      ) : null}
      {created ? (
        <>
          <SecretShown secret={created.secret} rotated={false} />
          <p className="mt-3">
            <Link to={`/admin/webhooks/${created.id}`} className="underline" data-testid="webhook-created-link">
              {t("console.webhooks.openCreated")}
            </Link>
          </p>
        </>
      ) : null}
      <ConsoleList
        count={t("console.webhooks.count", { count: String(loaderData.endpoints.length) })}
        empty={t("console.webhooks.none")}
        label={t("console.webhooks.title")}
        testId="webhook-endpoints"
        rows={loaderData.endpoints}
        rowKey={(r) => r.id}
        rowTestId="webhook-endpoint-row"
        stack
        columns={[
          {
            key: "url",
            header: t("console.webhooks.col.url"),
            cell: (r) => (
              <>
                <span className="break-all font-medium">{r.url}</span>
                {r.description ? <span className="block text-sm text-muted">{r.description}</span> : null}
              </>
            ),
          },
          {
            key: "state",
            header: t("console.webhooks.col.state"),
            cell: (r) =>
              t(
                r.enabled
                  ? "console.webhooks.state.enabled"
                  : r.disabledReason === "failing"
                    ? "console.webhooks.state.failing"
                    : "console.webhooks.state.disabled",
              ),
          },
          {
            key: "queue",
            header: t("console.webhooks.col.queue"),
            className: "text-sm tabular-nums",
            cell: (r) =>
              t("console.webhooks.queue", {
                events: String(r.events),
                waiting: String(r.waiting),
                failed: String(r.failed),
              }),
          },
          {
            key: "created",
            header: t("console.webhooks.col.created"),
            className: "text-sm tabular-nums",
            cell: (r) => formatTaipei(r.createdAt, locale, "dateTime"),
          },
          {
            key: "action",
            header: t("console.webhooks.col.action"),
            className: "whitespace-nowrap",
            cell: (r) => (
              <RowLink to={`/admin/webhooks/${r.id}`} testId="webhook-open">
                <span aria-hidden="true">{t("console.webhooks.open")}</span>
                <span className="sr-only">{t("console.webhooks.openFor", { url: r.url })}</span>
              </RowLink>
            ),
          },
        ]}
      />
      <DetailSection title={t("console.webhooks.new")} className="mt-6">
        <Form method="post" className="space-y-5" key={created?.id ?? "form"} data-testid="webhook-new-form">
          <EndpointFields form={form} current={null} development={loaderData.development} />
          <Button type="submit" pending={pending} data-testid="webhook-register">
            {t("console.webhooks.register")}
          </Button>
        </Form>
      </DetailSection>
    </ConsolePage>
  );
}
