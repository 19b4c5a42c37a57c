import { AUTOMATIC_KINDS, MESSAGE_CHANNELS } from "@platform/db/schema/member-message-kinds";
import { useState } from "react";
import { data, Form, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { consoleAudit } from "~/adapters/console.server";
import { consoleFailure } from "~/adapters/console-failure.server";
import { getApp } from "~/adapters/context.server";
import { ConsolePage } from "~/components/console/console-page";
import { type AutomaticPreview, AutomaticPreviews } from "~/components/console/messages/automatic-previews";
import { useConsoleT } from "~/components/console/use-console-t";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { CheckboxField } from "~/components/ui/checkbox";
import { TextareaField } from "~/components/ui/field";
import { automaticCard } from "~/domain/member-messages/compose.server";
import {
  type AutomaticSetting,
  automaticFormData,
  automaticSchema,
  automaticSetting,
  saveAutomaticSetting,
} from "~/domain/member-messages/settings.server";
import { AUTOMATIC_DEFAULTS, AUTOMATIC_TEXT_MAX, PLACEHOLDERS, sampleValues } from "~/domain/member-messages/templates";
import { isVersionConflict } from "~/domain/refusals";
import { requirePermission } from "~/domain/staff/guard.server";
import { requestNow } from "~/lib/clock.server";
import { formFailure, parseForm, readForm } from "~/lib/forms.server";
import { parseParam } from "~/lib/http.server";
import { LOCALES, type Locale, type MessageKey } from "~/lib/i18n";
import { serverT } from "~/lib/i18n.server";
import { pageMeta } from "~/lib/meta";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/automatic";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.messages.automatic.title");

const kindParam = z.enum(AUTOMATIC_KINDS);
const TEXT_FIELD = { "zh-TW": "textZh", en: "textEn" } as const;

/** One automatic message (admins, ADR 034): on or off, its channels, its text in both languages, with previews. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  requirePermission(context, "messages.manage");
  const kind = parseParam(kindParam, params.kind, request);
  const app = getApp(context);
  const setting = await automaticSetting(app.db, kind);
  // The card around the text, per language, for the previews (sample values; each member gets their own).
  const preview = Object.fromEntries(
    LOCALES.map((locale) => {
      const values = sampleValues(kind, locale);
      return [locale, { values, card: automaticCard(kind, values, locale, app.config.publicBaseUrl) }];
    }),
  ) as AutomaticPreview;
  return {
    kind,
    setting: { ...setting, updatedAt: setting.updatedAt?.toISOString() ?? null },
    defaults: AUTOMATIC_DEFAULTS[kind].text,
    placeholders: PLACEHOLDERS[kind],
    saved: new URL(request.url).searchParams.get("saved") === "1",
    preview,
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const actor = requirePermission(context, "messages.manage");
  const kind = parseParam(kindParam, params.kind, request);
  const app = getApp(context);
  const form = automaticFormData(await readForm(request));
  const t = serverT(request);
  const version = Number(form.get("version"));
  if (!Number.isInteger(version) || version < 0) throw data(null, { status: 400, statusText: "Bad Request" });
  const parsed = parseForm(automaticSchema(t, kind), form);
  if (!parsed.ok) return formFailure({ ...parsed.failure, formError: t("console.messages.error.fix") });
  try {
    const audit = consoleAudit(context, request);
    await saveAutomaticSetting(app.db, actor, kind, version, parsed.data, audit, requestNow(request, app.config));
  } catch (error) {
    // Told, nothing lost: what was typed stays, over the version now saved.
    const current = isVersionConflict(error) ? (error.current as AutomaticSetting) : null;
    return consoleFailure(error, form, t, current ? { values: { version: String(current.version) } } : {});
  }
  return redirect(`/admin/messages/automatic/${kind}?saved=1`);
}

export default function AutomaticMessage({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const form = useFormState();
  const pending = useNavigation().state === "submitting";
  const { setting, kind } = loaderData;
  const typed = form.state?.values;
  const [text, setText] = useState<Record<Locale, string>>({
    "zh-TW": typed?.textZh ?? setting.text["zh-TW"],
    en: typed?.textEn ?? setting.text.en,
  });
  const channels = typed ? (typed.channels ?? "").split(",") : setting.channels;
  const placeholders = loaderData.placeholders.map((p) => `{${p}}`).join(" ");
  return (
    <ConsolePage
      back={{ to: "/admin/messages", label: t("console.messages.edit.back") }}
      title={t(`console.messages.kind.${kind}` as MessageKey)}
      lead={t(`console.messages.when.${kind}` as MessageKey)}
      notices={
        <>
          {loaderData.saved && !form.state ? <Alert tone="success">{t("console.messages.edit.saved")}</Alert> : null}
          {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
        </>
      }
    >
      <div className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <Form method="post" className="space-y-6 self-start rounded-2xl border border-line bg-white p-5" noValidate>
          <input type="hidden" name="version" value={typed?.version ?? String(setting.version)} />
          <CheckboxField
            name="enabled"
            label={t("console.messages.edit.enabled")}
            defaultChecked={typed ? typed.enabled === "on" : setting.enabled}
          />
          <fieldset>
            <legend className="text-sm font-medium">{t("console.messages.channels")}</legend>
            <p className="mt-1 text-sm text-muted" id="channels-hint">
              {t("console.messages.channelsHint")}
            </p>
            <div className="mt-3 flex flex-wrap gap-x-6 gap-y-3">
              {MESSAGE_CHANNELS.map((c) => (
                <CheckboxField
                  key={c}
                  name="channels"
                  value={c}
                  label={t(`console.messages.channel.${c}` as MessageKey)}
                  defaultChecked={channels.includes(c)}
                  errors={c === "line" ? form.errors("channels") : null}
                />
              ))}
            </div>
          </fieldset>
          {LOCALES.map((locale) => (
            <div key={locale}>
              <TextareaField
                label={t(locale === "zh-TW" ? "console.messages.edit.textZh" : "console.messages.edit.textEn")}
                description={t("console.messages.edit.textHint", { placeholders, max: AUTOMATIC_TEXT_MAX })}
                errors={form.errors(TEXT_FIELD[locale])}
                textareaProps={{
                  name: TEXT_FIELD[locale],
                  value: text[locale],
                  onChange: (e) => setText((prev) => ({ ...prev, [locale]: e.currentTarget.value })),
                  maxLength: AUTOMATIC_TEXT_MAX + 50,
                  rows: 3,
                  required: true,
                }}
              />
              <button
                type="button"
                className="mt-1 text-sm text-muted underline underline-offset-4 hover:text-ink"
                onClick={() => setText((prev) => ({ ...prev, [locale]: loaderData.defaults[locale] }))}
              >
                {t("console.messages.edit.reset")}
              </button>
            </div>
          ))}
          <Button type="submit" pending={pending}>
            {t("console.messages.edit.save")}
          </Button>
        </Form>
        <AutomaticPreviews text={text} preview={loaderData.preview} />
      </div>
    </ConsolePage>
  );
}
