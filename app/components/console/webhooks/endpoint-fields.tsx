import { WEBHOOK_EVENTS, WEBHOOK_SCOPES } from "@platform/db/schema";
import { useId } from "react";
import { ErrorList, Field } from "~/components/ui/field";
import { DESCRIPTION_MAX, URL_MAX } from "~/domain/webhooks/input";
import { useConsoleT } from "../use-console-t";

/** The checked boxes of a refused form, kept as `events.<event>` / `scopes.<scope>` values (ADR 054). */
export function listValues(form: FormData, values: Record<string, string>): Record<string, string> {
  const kept = { ...values };
  for (const name of ["events", "scopes"]) {
    delete kept[name];
    for (const v of form.getAll(name)) if (typeof v === "string") kept[`${name}.${v}`] = "on";
  }
  return kept;
}

type FormReader = {
  state: unknown;
  errors: (field: string) => string[] | null;
  value: (field: string, fallback?: string) => string;
};

/** An endpoint's address, description, events and personal-data scope: the register and the change form. */
export function EndpointFields({
  form,
  current,
  development,
}: {
  form: FormReader;
  current: { url: string; description: string; events: string[]; scopes: string[] } | null;
  development: boolean;
}) {
  const t = useConsoleT();
  const id = useId();
  const checked = (name: "events" | "scopes", value: string) =>
    form.state ? form.value(`${name}.${value}`) === "on" : (current?.[name].includes(value) ?? false);
  const eventErrors = form.errors("events");
  // The events' error marks the first box only (one field to fix, announced once), tied to the message.
  const invalidBox = (name: string, value: string) =>
    name === "events" && value === WEBHOOK_EVENTS[0] && Boolean(eventErrors?.length);
  const box = (name: "events" | "scopes", value: string, label: string, hint?: string) => (
    <li key={value}>
      <label className="flex min-h-11 cursor-pointer items-start gap-3 rounded-xl border border-line bg-white px-3 py-2 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50/60">
        <input
          type="checkbox"
          name={name}
          value={value}
          defaultChecked={checked(name, value)}
          aria-invalid={invalidBox(name, value) || undefined}
          aria-describedby={invalidBox(name, value) ? `${id}-events-error` : undefined}
          className="mt-1 size-5 shrink-0 accent-brand-700"
          data-testid={`webhook-${name}-${value}`}
        />
        <span>
          <span className="block">{label}</span>
          {hint ? <span className="block text-sm text-muted">{hint}</span> : null}
        </span>
      </label>
    </li>
  );
  return (
    <>
      <Field
        label={t("console.webhooks.field.url")}
        description={t(development ? "console.webhooks.field.urlHintDev" : "console.webhooks.field.urlHint")}
        errors={form.errors("url")}
        inputProps={{
          name: "url",
          type: "url",
          required: true,
          maxLength: URL_MAX,
          inputMode: "url",
          autoComplete: "off",
          defaultValue: form.value("url", current?.url ?? ""),
        }}
      />
      <Field
        label={t("console.webhooks.field.description")}
        errors={form.errors("description")}
        inputProps={{
          name: "description",
          maxLength: DESCRIPTION_MAX,
          defaultValue: form.value("description", current?.description ?? ""),
        }}
      />
      <fieldset aria-describedby={`${id}-events`}>
        <legend className="text-sm font-medium text-ink">{t("console.webhooks.field.events")}</legend>
        <p id={`${id}-events`} className="mt-1 text-sm text-muted">
          {t("console.webhooks.field.eventsHint")}
        </p>
        <ul className="mt-3 grid gap-2 sm:grid-cols-2">
          {WEBHOOK_EVENTS.map((e) => box("events", e, t(`console.webhooks.event.${e}`), e))}
        </ul>
        <ErrorList id={`${id}-events-error`} errors={eventErrors} />
      </fieldset>
      <fieldset aria-describedby={`${id}-scopes`}>
        <legend className="text-sm font-medium text-ink">{t("console.webhooks.field.scopes")}</legend>
        <p id={`${id}-scopes`} className="mt-1 text-sm text-muted">
          {t("console.webhooks.field.scopesHint")}
        </p>
        <ul className="mt-3 grid gap-2">
          {WEBHOOK_SCOPES.map((s) =>
            box("scopes", s, t(`console.webhooks.scope.${s}`), t(`console.webhooks.scopeHint.${s}`)),
          )}
        </ul>
      </fieldset>
    </>
  );
}
