import { data, Form, useNavigation } from "react-router";
import { z } from "zod";
import { consoleAudit } from "~/adapters/console.server";
import { consoleFailure } from "~/adapters/console-failure.server";
import { getApp } from "~/adapters/context.server";
import { ConsolePage } from "~/components/console/console-page";
import { DetailSection } from "~/components/console/detail-section";
import { HiddenForm, PageNotices } from "~/components/console/staff/post-forms";
import { useConsoleT } from "~/components/console/use-console-t";
import { DeliveryLog } from "~/components/console/webhooks/delivery-log";
import { EndpointFields, listValues } from "~/components/console/webhooks/endpoint-fields";
import { SecretShown } from "~/components/console/webhooks/secret-shown";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { requirePermission } from "~/domain/staff/guard.server";
import {
  deliveryLog,
  endpointOf,
  redeliver,
  rotateSecret,
  setEndpointEnabled,
  updateEndpoint,
} from "~/domain/webhooks/endpoints.server";
import { parseEndpointForm } from "~/domain/webhooks/input";
import { requestNow } from "~/lib/clock.server";
import { formValues, readForm } from "~/lib/forms.server";
import { useLocale } from "~/lib/i18n";
import { serverT } from "~/lib/i18n.server";
import { pageMeta } from "~/lib/meta";
import { formatTaipei } from "~/lib/time";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/endpoint";
import { problemMessages } from "./webhooks";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.webhooks.title");

const idParam = z.string().uuid();
const intent = z.enum(["update", "rotate", "enable", "disable", "redeliver"]);

function endpointIdOf(params: { endpointId?: string }): string {
  const id = idParam.safeParse(params.endpointId);
  if (!id.success) throw data(null, { status: 404 });
  return id.data;
}

/** One endpoint (admins, `webhooks.manage`; ADR 054): its settings, secret rotation, and the delivery log. */
export async function loader({ params, context }: Route.LoaderArgs) {
  requirePermission(context, "webhooks.manage");
  const id = endpointIdOf(params);
  const app = getApp(context);
  const endpoint = await endpointOf(app.db, id);
  if (!endpoint) throw data(null, { status: 404 });
  return {
    development: !app.config.isProduction,
    endpoint: {
      id: endpoint.id,
      url: endpoint.url,
      description: endpoint.description,
      events: endpoint.events,
      scopes: endpoint.scopes,
      enabled: endpoint.enabled,
      disabledReason: endpoint.disabledReason,
      disabledAt: endpoint.disabledAt?.toISOString() ?? null,
      failingSince: endpoint.failingSince?.toISOString() ?? null,
      previousSecretUntil:
        endpoint.previousSecretUntil && endpoint.previousSecretUntil > new Date()
          ? endpoint.previousSecretUntil.toISOString()
          : null,
      version: endpoint.version,
    },
    log: await deliveryLog(app.db, id),
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const actor = requirePermission(context, "webhooks.manage");
  const id = endpointIdOf(params);
  const app = getApp(context);
  const t = serverT(request);
  const form = await readForm(request);
  const chosen = intent.safeParse(form.get("intent"));
  if (!chosen.success) throw data(null, { status: 400 });
  const audit = consoleAudit(context, request);
  const now = requestNow(request, app.config);
  const values = listValues(form, formValues(form));
  try {
    switch (chosen.data) {
      case "rotate":
        return { rotated: await rotateSecret(app.db, actor, id, app.config.secrets.session, audit, now) };
      case "enable":
      case "disable":
        await setEndpointEnabled(app.db, actor, id, chosen.data === "enable", audit, now);
        return { done: t(chosen.data === "enable" ? "console.webhooks.enabled" : "console.webhooks.disabled") };
      case "redeliver": {
        const delivery = idParam.safeParse(form.get("deliveryId"));
        if (!delivery.success) throw data(null, { status: 400 });
        await redeliver(app.db, actor, id, delivery.data, audit, now);
        return { done: t("console.webhooks.redelivered") };
      }
      case "update": {
        const version = z.coerce.number().int().positive().safeParse(form.get("version"));
        const parsed = parseEndpointForm(form);
        if (!parsed.ok || !version.success) {
          const errors = parsed.ok ? {} : problemMessages(parsed.problems, t);
          return data({ errors, values, formError: t("console.webhooks.error.form") }, { status: 400 });
        }
        await updateEndpoint(
          app.db,
          actor,
          id,
          version.data,
          parsed.value,
          { production: app.config.isProduction },
          audit,
          now,
        );
        return { done: t("console.webhooks.saved") };
      }
    }
  } catch (error) {
    return consoleFailure(error, form, t, { values });
  }
}

export default function WebhookEndpoint({ loaderData, actionData }: Route.ComponentProps) {
  const t = useConsoleT();
  const locale = useLocale();
  const form = useFormState();
  const pending = useNavigation().state === "submitting";
  const { endpoint, log } = loaderData;
  const rotated = actionData && "rotated" in actionData ? actionData.rotated : null;
  const done = actionData && "done" in actionData ? (actionData.done ?? null) : null;
  return (
    <ConsolePage
      width="5xl"
      back={{ to: "/admin/webhooks", label: t("console.webhooks.back") }}
      title={t("console.webhooks.endpointTitle")}
      lead={endpoint.url}
      notices={<PageNotices done={done} error={form.formError} />}
    >
      {endpoint.disabledReason === "failing" ? (
        <Alert tone="error" title={t("console.webhooks.stoppedTitle")} className="mt-6">
          {t("console.webhooks.stoppedOne", {
            since: endpoint.disabledAt ? formatTaipei(endpoint.disabledAt, locale, "dateTime") : "",
          })}
        </Alert>
      ) : null}
      {rotated ? <SecretShown secret={rotated} rotated /> : null}
      <DetailSection title={t("console.webhooks.section.state")} className="mt-6" testId="webhook-state">
        <p data-testid="webhook-state-text">
          {t(
            endpoint.enabled
              ? "console.webhooks.state.enabled"
              : endpoint.disabledReason === "failing"
                ? "console.webhooks.state.failing"
                : "console.webhooks.state.disabled",
          )}
          {endpoint.failingSince
            ? ` · ${t("console.webhooks.failingSince", { since: formatTaipei(endpoint.failingSince, locale, "dateTime") })}`
            : null}
        </p>
        {endpoint.previousSecretUntil ? (
          <p className="text-sm text-muted">
            {t("console.webhooks.previousSecret", {
              until: formatTaipei(endpoint.previousSecretUntil, locale, "dateTime"),
            })}
          </p>
        ) : null}
        <div className="flex flex-wrap gap-3">
          <HiddenForm fields={{ intent: endpoint.enabled ? "disable" : "enable" }}>
            <Button type="submit" variant="secondary" data-testid="webhook-toggle">
              {t(endpoint.enabled ? "console.webhooks.disable" : "console.webhooks.enable")}
            </Button>
          </HiddenForm>
          <HiddenForm fields={{ intent: "rotate" }}>
            <Button type="submit" variant="secondary" data-testid="webhook-rotate">
              {t("console.webhooks.rotate")}
            </Button>
          </HiddenForm>
        </div>
      </DetailSection>
      <DeliveryLog rows={log} />
      <DetailSection title={t("console.webhooks.section.settings")} className="mt-6">
        <Form method="post" className="space-y-5" data-testid="webhook-edit-form">
          <input type="hidden" name="intent" value="update" />
          <input type="hidden" name="version" value={endpoint.version} />
          <EndpointFields form={form} current={endpoint} development={loaderData.development} />
          <Button type="submit" pending={pending}>
            {t("console.webhooks.save")}
          </Button>
        </Form>
      </DetailSection>
    </ConsolePage>
  );
}
