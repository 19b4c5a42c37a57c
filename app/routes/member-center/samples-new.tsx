import { data, Form, useNavigation } from "react-router";
import { z } from "zod";
import { getApp, toastSettings } from "~/adapters/context.server";
import { requireMember } from "~/adapters/current-member.server";
import { Page } from "~/components/layout/page";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { CheckboxField } from "~/components/ui/checkbox";
import { ErrorList } from "~/components/ui/field";
import { Link } from "~/components/ui/link";
import { listFavourites } from "~/domain/materials/favourites.server";
import { isRefusal } from "~/domain/refusals";
import { publishedMaterialNames, requestSamples, sampleStoresOf } from "~/domain/samples/samples.server";
import { showroomSettings } from "~/domain/showroom/settings.server";
import { requestNow } from "~/lib/clock.server";
import { formFailure, formValues, parseForm, readForm } from "~/lib/forms.server";
import { useT } from "~/lib/i18n";
import { getLocale, routeMessages, serverT } from "~/lib/i18n.server";
import { pick } from "~/lib/localized";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/samples-new";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "samples.new.title");

/** A material id as the catalogue writes them (a slug); anything else is not a material. */
const MATERIAL_ID = /^[a-z0-9]+(?:-[a-z0-9]+){0,10}$/;
const STORE_ID = /^[A-Za-z0-9-]{1,64}$/;

/** `?material=…` (repeatable, from a material page): the ids that look like ids, at most the limit. */
function chosenFromQuery(url: URL, limit: number): string[] {
  return [...new Set(url.searchParams.getAll("material"))]
    .filter((id) => id.length <= 80 && MATERIAL_ID.test(id))
    .slice(0, limit);
}

/**
 * Ask for samples (issue 37 part 3): the member's favourites (and the material the page came from), each with the
 * stores that have samples of it, and the store to collect them at.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { member } = requireMember(context, request);
  const locale = getLocale(request);
  const db = getApp(context).db;
  const { sampleLimit, sampleLoanDays, sampleReminderDays } = await showroomSettings(db);
  const chosen = chosenFromQuery(new URL(request.url), sampleLimit);
  const favourites = await listFavourites(db, member.id);
  const ids = [...new Set([...chosen, ...favourites.map((f) => f.id)])];
  const stores = await sampleStoresOf(db, ids);
  const names = new Map(favourites.map((f) => [f.id, f.name]));
  // A material from the query that is not a favourite: its name from the catalogue, only if it has samples.
  const missing = chosen.filter((id) => !names.has(id) && stores.has(id));
  if (missing.length > 0) {
    for (const r of await publishedMaterialNames(db, missing)) names.set(r.id, r.name);
  }
  const materials = ids
    .filter((id) => names.has(id))
    .map((id) => ({
      id,
      name: pick(names.get(id) ?? null, locale),
      stores: (stores.get(id) ?? []).map((s) => ({ id: s.id, name: pick(s.name, locale) })),
    }));
  const storeList = new Map<string, string>();
  for (const m of materials) for (const s of m.stores) storeList.set(s.id, s.name);
  return data(
    {
      messages: routeMessages(locale, "samples.", "member.center.favourites."),
      limit: sampleLimit,
      loanDays: sampleLoanDays,
      reminderDays: sampleReminderDays,
      chosen: chosen.filter((id) => materials.some((m) => m.id === id && m.stores.length > 0)),
      materials,
      stores: [...storeList].map(([id, name]) => ({ id, name })),
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

function requestSchema(t: ReturnType<typeof serverT>, limit: number) {
  return z.object({
    materials: z
      .string()
      .default("")
      .transform((v) => [...new Set(v.split(",").filter(Boolean))])
      .check((ctx) => {
        const ids = ctx.value;
        const message =
          ids.length === 0
            ? t("samples.error.none_chosen")
            : ids.length > limit
              ? t("samples.error.over_limit", { limit: String(limit) })
              : ids.some((id) => id.length > 80 || !MATERIAL_ID.test(id))
                ? t("samples.error.no_samples")
                : null;
        if (message) ctx.issues.push({ code: "custom", message, input: ids });
      }),
    storeId: z
      .string()
      .default("")
      .pipe(z.string().min(1, t("samples.error.store_required")))
      .pipe(z.string().regex(STORE_ID, t("samples.error.unknown_store"))),
  });
}

/** The request: all or nothing, within the member's limit (one statement decides it). */
export async function action({ request, context }: Route.ActionArgs) {
  const { member } = requireMember(context, request);
  const app = getApp(context);
  const t = serverT(request);
  const raw = await readForm(request);
  // The boxes are one name repeated: joined, as the form refills them.
  const form = new FormData();
  for (const [key, value] of raw) if (key !== "materials") form.append(key, value);
  form.set("materials", raw.getAll("materials").map(String).join(","));
  const parsed = parseForm(requestSchema(t, (await showroomSettings(app.db)).sampleLimit), form);
  if (!parsed.ok) return formFailure({ ...parsed.failure, formError: t("samples.error.form") });
  try {
    await requestSamples(
      app.db,
      { memberId: member.id, storeId: parsed.data.storeId, materialIds: parsed.data.materials },
      requestNow(request, app.config),
    );
  } catch (error) {
    if (!isRefusal(error, "samples")) throw error;
    const message = t(error.messageKey, error.params);
    return formFailure(
      {
        errors: { [error.field ?? "materials"]: [message] },
        values: formValues(form),
        formError: t("samples.error.form"),
      },
      error.status,
    );
  }
  return redirectWithToast(toastSettings(context), "/member-center/samples", {
    type: "success",
    message: "notice.samplesRequested",
  });
}

export default function NewSampleRequest({ loaderData: d }: Route.ComponentProps) {
  const t = useT(d.messages);
  const form = useFormState();
  const pending = useNavigation().state === "submitting";
  const chosen = new Set(form.value("materials", d.chosen.join(",")).split(",").filter(Boolean));
  const store = form.value("storeId", d.stores.length === 1 ? (d.stores[0]?.id ?? "") : "");
  const withSamples = d.materials.filter((m) => m.stores.length > 0);
  const without = d.materials.filter((m) => m.stores.length === 0);
  const storeErrors = form.errors("storeId");
  return (
    <Page title={t("samples.new.title")} lead={t("samples.new.lead", { limit: d.limit })} width="narrow">
      <Link to="/member-center/samples" className="text-sm font-semibold text-brand-700 underline underline-offset-4">
        {t("samples.back")}
      </Link>
      {withSamples.length === 0 && form.formError ? (
        <Alert tone="error" className="mt-6">
          {[form.formError, ...(form.errors("materials") ?? []), ...(form.errors("storeId") ?? [])].join(" ")}
        </Alert>
      ) : null}
      {withSamples.length === 0 ? (
        <div className="mt-6 rounded-2xl border border-dashed border-line px-4 py-6 text-center text-muted">
          <p>{t("samples.new.noneWithSamples")}</p>
          <Link to="/materials" className="mt-2 inline-block font-semibold text-brand-700 underline underline-offset-4">
            {t("member.center.favourites.browse")}
          </Link>
        </div>
      ) : (
        <Form method="post" className="mt-6 space-y-8" noValidate>
          {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
          <fieldset className="space-y-4" data-testid="sample-materials">
            <legend className="text-lg font-semibold">{t("samples.new.materials")}</legend>
            {withSamples.map((m) => (
              <CheckboxField
                key={m.id}
                name="materials"
                value={m.id}
                defaultChecked={chosen.has(m.id)}
                label={
                  <span>
                    <span className="font-medium">{m.name}</span>
                    <span className="block text-sm text-muted">
                      {t("samples.new.atStores", { stores: m.stores.map((s) => s.name).join("、") })}
                    </span>
                  </span>
                }
              />
            ))}
            <ErrorList id="materials-error" errors={form.errors("materials")} />
            {without.length > 0 ? (
              <p className="text-sm text-muted">
                {t("samples.new.without", { names: without.map((m) => m.name).join("、") })}
              </p>
            ) : null}
          </fieldset>
          <fieldset className="space-y-3">
            <legend className="text-lg font-semibold">{t("samples.new.store")}</legend>
            {d.stores.map((s) => (
              <label
                key={s.id}
                className="flex min-h-11 cursor-pointer items-center gap-3 rounded-xl border border-line bg-white px-4 py-2 has-checked:border-ink"
              >
                <input
                  type="radio"
                  name="storeId"
                  value={s.id}
                  defaultChecked={store === s.id}
                  aria-invalid={storeErrors ? true : undefined}
                  aria-describedby={storeErrors ? "storeId-error" : undefined}
                  className="size-6 shrink-0 accent-ink"
                />
                <span>{s.name}</span>
              </label>
            ))}
            <ErrorList id="storeId-error" errors={storeErrors} />
          </fieldset>
          <p className="text-sm text-muted">
            {t("samples.new.terms", { days: d.loanDays, reminderDays: d.reminderDays })}
          </p>
          <Button type="submit" className="w-full" disabled={pending}>
            {t("samples.new.submit")}
          </Button>
        </Form>
      )}
    </Page>
  );
}
