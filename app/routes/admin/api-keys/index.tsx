import { data, redirect } from "react-router";
import { consoleAudit, requireRecentSecondFactorFor } from "~/adapters/console.server";
import { consoleFailure } from "~/adapters/console-failure.server";
import { getApp } from "~/adapters/context.server";
import { ConsoleList } from "~/components/console/console-list";
import { ConsolePage } from "~/components/console/console-page";
import { CreatedSecret, NewKeyForm } from "~/components/console/staff/api-key-forms";
import { HiddenForm, PageNotices, StepUpConfirm } from "~/components/console/staff/post-forms";
import { useConsoleT } from "~/components/console/use-console-t";
import { Button } from "~/components/ui/button";
import {
  API_REQUESTS_PER_MINUTE,
  createApiKeyInConsole,
  listApiKeys,
  revokeApiKeyInConsole,
  setApiKeyScopesInConsole,
} from "~/domain/pos/api-keys.server";
import { apiKeySchema } from "~/domain/staff/forms";
import { requirePermission } from "~/domain/staff/guard.server";
import { storeChoicesFor } from "~/domain/staff/store-choices.server";
import { requestNow } from "~/lib/clock.server";
import { formFailure, parseForm, readForm } from "~/lib/forms.server";
import { useLocale } from "~/lib/i18n";
import { getLocale, serverT } from "~/lib/i18n.server";
import { pick } from "~/lib/localized";
import { pageMeta } from "~/lib/meta";
import { formatTaipei } from "~/lib/time";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.keys.title");

/** POS API keys (admins): one store each; the secret is shown once; revoking is immediate. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const app = getApp(context);
  const actor = requirePermission(context, "apikeys.manage");
  const locale = getLocale(request);
  const [keys, stores] = await Promise.all([listApiKeys(app.db, actor), storeChoicesFor(app.db, actor, locale)]);
  return {
    perMinute: API_REQUESTS_PER_MINUTE,
    stores,
    revoked: new URL(request.url).searchParams.get("revoked") === "1",
    scopesChanged: new URL(request.url).searchParams.get("scopes") === "1",
    keys: keys.map((k) => ({
      id: k.id,
      name: k.name,
      prefix: k.prefix,
      store: pick(k.storeName, locale),
      createdAt: k.createdAt.toISOString(),
      lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
      revoked: k.revokedAt !== null,
      einvoiceRead: k.scopes.includes("einvoice:read"),
    })),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const app = getApp(context);
  requirePermission(context, "apikeys.manage");
  const form = await readForm(request);
  const t = serverT(request);
  const stepUp = await requireRecentSecondFactorFor(context, request, form);
  if (!stepUp.ok) return stepUp.answer;
  const parsed = parseForm(apiKeySchema, form);
  if (!parsed.ok) return formFailure(parsed.failure);
  const { intent, keyId, einvoiceRead, ...input } = parsed.data;
  const scopes = einvoiceRead ? (["einvoice:read"] as const) : [];
  const audit = consoleAudit(context, request);
  const now = requestNow(request, app.config);
  if (intent === "revoke") {
    if (await revokeApiKeyInConsole(app.db, stepUp.actor, keyId, audit, now))
      return redirect("/admin/api-keys?revoked=1");
    return data({ formError: t("console.keys.error.revoked") }, { status: 409 });
  }
  if (intent === "scopes") {
    if (await setApiKeyScopesInConsole(app.db, stepUp.actor, keyId, scopes, audit, now))
      return redirect("/admin/api-keys?scopes=1");
    return data({ formError: t("console.keys.error.revoked") }, { status: 409 });
  }
  try {
    const { key, secret } = await createApiKeyInConsole(app.db, stepUp.actor, { ...input, scopes }, audit, now);
    return { created: { name: key.name, secret } };
  } catch (error) {
    return consoleFailure(error, form, t);
  }
}

export default function ApiKeys({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const locale = useLocale();
  const form = useFormState();
  const state = form.state as { stepUp?: boolean; created?: { name: string; secret: string } } | undefined;
  const revoking = Boolean(state?.stepUp) && form.value("intent") === "revoke";
  const changingScopes = Boolean(state?.stepUp) && form.value("intent") === "scopes";
  const time = (iso: string) => formatTaipei(iso, locale, "dateTime");
  return (
    <ConsolePage
      width="5xl"
      title={t("console.keys.title")}
      lead={
        <>
          {t("console.keys.lead", { perMinute: loaderData.perMinute.toLocaleString("en-US") })}{" "}
          <a href="/api/v1/docs" className="underline underline-offset-4">
            {t("console.keys.reference")}
          </a>
        </>
      }
      notices={
        <PageNotices
          done={
            form.state
              ? null
              : loaderData.revoked
                ? t("console.keys.revokedDone")
                : loaderData.scopesChanged
                  ? t("console.keys.scopes.done")
                  : null
          }
          error={form.formError}
        >
          {revoking ? (
            <StepUpConfirm
              fields={{ intent: "revoke", keyId: form.value("keyId") }}
              label={t("console.keys.revoke")}
              variant="danger"
              errors={form.errors("stepUpCode")}
            />
          ) : null}
          {changingScopes ? (
            <StepUpConfirm
              fields={{ intent: "scopes", keyId: form.value("keyId"), einvoiceRead: form.value("einvoiceRead") }}
              label={t("console.keys.scopes.save")}
              errors={form.errors("stepUpCode")}
            />
          ) : null}
        </PageNotices>
      }
    >
      {state?.created ? <CreatedSecret {...state.created} /> : null}
      <NewKeyForm
        form={form}
        stores={loaderData.stores}
        stepUp={Boolean(state?.stepUp) && !revoking && !changingScopes}
        createdSecret={state?.created?.secret ?? null}
      />
      <ConsoleList
        empty={t("console.keys.empty")}
        label={t("console.keys.title")}
        testId="keys"
        rows={loaderData.keys}
        rowKey={(k) => k.id}
        rowTestId="key"
        stack
        columns={[
          {
            key: "name",
            header: t("console.keys.name"),
            className: "font-medium",
            cell: (k) => (
              <>
                {k.name}
                {k.revoked ? (
                  <span className="ml-2 rounded-full bg-danger-700/10 px-2 py-0.5 text-xs font-normal text-danger-800">
                    {t("console.keys.revokedBadge")}
                  </span>
                ) : null}
              </>
            ),
          },
          { key: "store", header: t("console.audit.store"), cell: (k) => k.store },
          { key: "prefix", header: t("console.keys.secret"), className: "font-mono", cell: (k) => `${k.prefix}…` },
          {
            key: "use",
            header: t("console.keys.col.use"),
            className: "text-xs text-muted tabular-nums",
            cell: (k) =>
              `${t("console.keys.createdAt", { time: time(k.createdAt) })} · ${
                k.lastUsedAt ? t("console.keys.lastUsed", { time: time(k.lastUsedAt) }) : t("console.keys.neverUsed")
              }`,
          },
          {
            key: "scopes",
            header: t("console.keys.scopes.title"),
            className: "whitespace-nowrap",
            cell: (k) => (
              <div className="flex flex-wrap items-center gap-2">
                <span className="text-sm" data-testid="key-scopes">
                  {k.einvoiceRead ? t("console.keys.scopes.einvoiceRead") : t("console.keys.scopes.none")}
                </span>
                {k.revoked ? null : (
                  <HiddenForm fields={{ intent: "scopes", keyId: k.id, einvoiceRead: k.einvoiceRead ? "off" : "on" }}>
                    <Button
                      type="submit"
                      size="sm"
                      variant="secondary"
                      aria-label={t(k.einvoiceRead ? "console.keys.scopes.removeFor" : "console.keys.scopes.grantFor", {
                        name: k.name,
                      })}
                    >
                      {t(k.einvoiceRead ? "console.keys.scopes.remove" : "console.keys.scopes.grant")}
                    </Button>
                  </HiddenForm>
                )}
              </div>
            ),
          },
          {
            key: "revoke",
            header: t("console.keys.revoke"),
            className: "whitespace-nowrap",
            cell: (k) =>
              k.revoked ? null : (
                <HiddenForm fields={{ intent: "revoke", keyId: k.id }}>
                  <Button
                    type="submit"
                    size="sm"
                    variant="secondary"
                    aria-label={t("console.keys.revokeFor", { name: k.name })}
                  >
                    {t("console.keys.revoke")}
                  </Button>
                </HiddenForm>
              ),
          },
        ]}
      />
    </ConsolePage>
  );
}
