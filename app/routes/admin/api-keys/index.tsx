import { data, Form, redirect, useNavigation } from "react-router";
import { consoleAudit, requireRecentSecondFactorFor } from "~/adapters/console.server";
import { consoleFailure } from "~/adapters/console-failure.server";
import { getApp } from "~/adapters/context.server";
import { ConsolePage } from "~/components/console/console-page";
import { CopyField } from "~/components/console/copy-field";
import { StepUpField } from "~/components/console/step-up-field";
import { useConsoleT } from "~/components/console/use-console-t";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { NativeSelectField } from "~/components/ui/native-select";
import {
  API_REQUESTS_PER_MINUTE,
  createApiKeyInConsole,
  listApiKeys,
  revokeApiKeyInConsole,
} from "~/domain/pos/api-keys.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { storeChoicesFor } from "~/domain/staff/store-choices.server";
import { requestNow } from "~/lib/clock.server";
import { readForm } from "~/lib/forms.server";
import { useLocale } from "~/lib/i18n";
import { getLocale, serverT } from "~/lib/i18n.server";
import { pick } from "~/lib/localized";
import { pageMeta } from "~/lib/meta";
import { formatTaipei } from "~/lib/time";
import { useFormState } from "~/lib/use-form-state";
import { staffFormValues } from "../form-answers.server";
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
    keys: keys.map((k) => ({
      id: k.id,
      name: k.name,
      prefix: k.prefix,
      store: pick(k.storeName, locale),
      createdAt: k.createdAt.toISOString(),
      lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
      revokedAt: k.revokedAt?.toISOString() ?? null,
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
  const audit = consoleAudit(context, request);
  const now = requestNow(request, app.config);
  if (form.get("intent") === "revoke") {
    const done = await revokeApiKeyInConsole(app.db, stepUp.actor, String(form.get("keyId") ?? ""), audit, now);
    if (!done) return data({ formError: t("console.keys.error.revoked") }, { status: 409 });
    return redirect("/admin/api-keys?revoked=1");
  }
  try {
    const { key, secret } = await createApiKeyInConsole(
      app.db,
      stepUp.actor,
      { storeId: String(form.get("storeId") ?? ""), name: String(form.get("name") ?? "").slice(0, 300) },
      audit,
      now,
    );
    return { created: { name: key.name, secret } };
  } catch (error) {
    return consoleFailure(error, null, t, { values: staffFormValues(form) });
  }
}

function CreatedSecret({ name, secret }: { name: string; secret: string }) {
  const t = useConsoleT();
  return (
    <section className="mt-6 space-y-3 rounded-2xl border border-success-700/30 bg-white p-5" data-testid="key-created">
      <Alert tone="success" title={t("console.keys.createdTitle", { name })}>
        {t("console.keys.createdBody")}
      </Alert>
      <CopyField
        id="key-secret"
        label={t("console.keys.secret")}
        value={secret}
        copyLabel={t("console.keys.copy")}
        testId="key-secret"
      />
    </section>
  );
}

export default function ApiKeys({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const locale = useLocale();
  const form = useFormState();
  const navigation = useNavigation();
  const state = form.state as { stepUp?: boolean; created?: { name: string; secret: string } } | undefined;
  const intent = state?.stepUp ? form.value("intent") : "";
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
        <>
          {loaderData.revoked && !form.state ? <Alert tone="success">{t("console.keys.revokedDone")}</Alert> : null}
          {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
          {state?.stepUp && intent === "revoke" ? (
            <Form method="post" className="space-y-4 rounded-2xl border border-line bg-white p-5">
              <input type="hidden" name="intent" value="revoke" />
              <input type="hidden" name="keyId" value={form.value("keyId")} />
              <StepUpField show errors={form.errors("stepUpCode")} />
              <Button type="submit" variant="danger">
                {t("console.keys.revoke")}
              </Button>
            </Form>
          ) : null}
        </>
      }
    >
      {state?.created ? <CreatedSecret {...state.created} /> : null}

      <section className="mt-6 rounded-2xl border border-line bg-white p-5" aria-labelledby="new-key-title">
        <h2 id="new-key-title" className="text-lg font-semibold">
          {t("console.keys.new")}
        </h2>
        <Form method="post" className="mt-4 grid gap-4 sm:grid-cols-2" key={state?.created?.secret ?? "form"}>
          <input type="hidden" name="intent" value="create" />
          <NativeSelectField
            label={t("console.audit.store")}
            errors={form.errors("storeId")}
            selectProps={{ name: "storeId", required: true, defaultValue: form.value("storeId") }}
          >
            <option value="">{t("console.store.choose")}</option>
            {loaderData.stores.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </NativeSelectField>
          <Field
            label={t("console.keys.name")}
            description={t("console.keys.nameHint")}
            errors={form.errors("name")}
            inputProps={{ name: "name", required: true, maxLength: 50, defaultValue: form.value("name") }}
          />
          <div className="sm:col-span-2">
            <StepUpField show={Boolean(state?.stepUp && intent !== "revoke")} errors={form.errors("stepUpCode")} />
          </div>
          <div>
            <Button type="submit" pending={navigation.state === "submitting"}>
              {t("console.keys.create")}
            </Button>
          </div>
        </Form>
      </section>

      <ul className="mt-6 space-y-3" data-testid="keys">
        {loaderData.keys.map((k) => (
          <li
            key={k.id}
            className="flex flex-wrap items-center justify-between gap-3 rounded-2xl border border-line bg-white p-4"
            data-testid="key"
          >
            <div className="min-w-0">
              <p className="font-medium">
                {k.name}
                {k.revokedAt ? (
                  <span className="ml-2 rounded-full bg-danger-700/10 px-2 py-0.5 text-xs text-danger-800">
                    {t("console.keys.revokedBadge")}
                  </span>
                ) : null}
              </p>
              <p className="mt-1 text-sm text-muted">
                <span className="font-mono">{k.prefix}…</span> · {k.store}
              </p>
              <p className="mt-1 text-xs text-muted tabular-nums">
                {t("console.keys.createdAt", { time: formatTaipei(k.createdAt, locale, "dateTime") })} ·{" "}
                {k.lastUsedAt
                  ? t("console.keys.lastUsed", { time: formatTaipei(k.lastUsedAt, locale, "dateTime") })
                  : t("console.keys.neverUsed")}
              </p>
            </div>
            {k.revokedAt ? null : (
              <Form method="post">
                <input type="hidden" name="intent" value="revoke" />
                <input type="hidden" name="keyId" value={k.id} />
                <Button
                  type="submit"
                  size="sm"
                  variant="secondary"
                  aria-label={t("console.keys.revokeFor", { name: k.name })}
                >
                  {t("console.keys.revoke")}
                </Button>
              </Form>
            )}
          </li>
        ))}
      </ul>
    </ConsolePage>
  );
}
