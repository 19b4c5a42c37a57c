import { Form, useNavigation } from "react-router";
import { getApp, toastSettings } from "~/adapters/context.server";
import { requireMember } from "~/adapters/current-member.server";
import { Page } from "~/components/layout/page";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Field, TextareaField } from "~/components/ui/field";
import { Link } from "~/components/ui/link";
import { NativeSelectField } from "~/components/ui/native-select";
import { listFavourites } from "~/domain/materials/favourites.server";
import { MESSAGE_MAX, NOTE_MAX, OPEN_QUOTE_LIMIT, parseQuoteRequest } from "~/domain/quotes/input";
import { quoteStores, requestQuote } from "~/domain/quotes/quotes.server";
import { requestNow } from "~/lib/clock.server";
import { formFailure, formValues, readForm } from "~/lib/forms.server";
import { useT } from "~/lib/i18n";
import { getLocale, routeMessages, serverT } from "~/lib/i18n.server";
import { links } from "~/lib/links";
import { pick } from "~/lib/localized";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/new";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "member.center.quotes.newTitle");

/** The quote list: the member's favourites, a quantity and unit per material, a store and a message. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { member } = requireMember(context, request);
  const db = getApp(context).db;
  const locale = getLocale(request);
  const [favourites, stores] = await Promise.all([listFavourites(db, member.id), quoteStores(db)]);
  return {
    messages: routeMessages(locale, "member.center.quotes."),
    favourites: favourites.map((f) => ({ id: f.id, name: pick(f.name, locale) })),
    stores: stores.map((s) => ({ id: s.id, name: pick(s.name, locale) })),
    limit: OPEN_QUOTE_LIMIT,
  };
}

/** Sends the request for the session's member (no member id is read from the form). */
export async function action({ request, context }: Route.ActionArgs) {
  const { member } = requireMember(context, request);
  const app = getApp(context);
  const t = serverT(request);
  const form = await readForm(request);
  const values = formValues(form);
  const parsed = parseQuoteRequest(values, t);
  if (!parsed.ok) {
    return formFailure({ errors: parsed.errors, values, formError: t("member.center.quotes.error.form") });
  }
  const now = requestNow(request, app.config);
  const result = await requestQuote(app.db, member.id, parsed.data, getLocale(request), now);
  if (!result.ok) {
    const { refusal } = result;
    const message =
      refusal.code === "limit"
        ? t("member.center.quotes.error.limit", { limit: refusal.limit })
        : refusal.code === "unknown_store"
          ? t("member.center.quotes.error.unknownStore")
          : t("member.center.quotes.error.unknownMaterial");
    if (refusal.field === "form") return formFailure({ errors: {}, values, formError: message }, 409);
    return formFailure({
      errors: { [refusal.field]: [message] },
      values,
      formError: t("member.center.quotes.error.form"),
    });
  }
  return redirectWithToast(toastSettings(context), links.memberQuote(result.id), {
    type: "success",
    message: "notice.quoteSent",
    values: { reference: result.reference },
  });
}

export default function NewQuotePage({ loaderData: d }: Route.ComponentProps) {
  const t = useT(d.messages);
  const form = useFormState();
  const pending = useNavigation().state === "submitting";
  const typed = Boolean(form.state?.values);
  return (
    <Page title={t("member.center.quotes.newTitle")} lead={t("member.center.quotes.newLead")} width="narrow">
      <Link
        to={links.memberQuotes()}
        className="-mt-4 mb-6 inline-flex min-h-11 items-center text-sm font-semibold text-brand-700 hover:underline"
      >
        {t("member.center.quotes.backToList")}
      </Link>
      {d.favourites.length === 0 ? (
        <div className="rounded-2xl border border-dashed border-line px-4 py-6 text-center text-muted">
          <p>{t("member.center.quotes.noFavourites")}</p>
          <Link
            to={links.materials()}
            className="mt-2 inline-block font-semibold text-brand-700 underline underline-offset-4"
          >
            {t("member.center.quotes.browse")}
          </Link>
        </div>
      ) : (
        <Form method="post" className="space-y-6" noValidate>
          {form.formError ? (
            <div data-testid="quote-form-error">
              <Alert tone="error">{form.formError}</Alert>
            </div>
          ) : null}
          <fieldset className="space-y-3">
            <legend className="mb-2 font-serif text-lg font-semibold">{t("member.center.quotes.linesLegend")}</legend>
            {form.errors("lines") ? (
              <p className="text-sm text-danger-700" data-testid="quote-lines-error">
                {form.errors("lines")?.join(" ")}
              </p>
            ) : null}
            {d.favourites.map((f) => {
              const picked = typed && form.value(`pick.${f.id}`) === "on";
              return (
                <div key={f.id} className="rounded-2xl border border-line bg-white p-4" data-testid="quote-line-input">
                  <label className="flex min-h-11 cursor-pointer items-center gap-3 font-medium">
                    <input
                      type="checkbox"
                      name={`pick.${f.id}`}
                      defaultChecked={picked}
                      className="size-5 accent-brand-700"
                    />
                    <span>{t("member.center.quotes.pick", { name: f.name })}</span>
                  </label>
                  <div className="mt-3 grid grid-cols-[1fr_7rem] gap-3">
                    <Field
                      label={t("member.center.quotes.quantity")}
                      errors={form.errors(`qty.${f.id}`)}
                      inputProps={{
                        name: `qty.${f.id}`,
                        inputMode: "decimal",
                        autoComplete: "off",
                        defaultValue: form.value(`qty.${f.id}`),
                      }}
                    />
                    <NativeSelectField
                      label={t("member.center.quotes.unitLabel")}
                      errors={form.errors(`unit.${f.id}`)}
                      selectProps={{ name: `unit.${f.id}`, defaultValue: form.value(`unit.${f.id}`, "m2") }}
                    >
                      <option value="m2">{t("member.center.quotes.unit.m2")}</option>
                      <option value="piece">{t("member.center.quotes.unit.piece")}</option>
                    </NativeSelectField>
                  </div>
                  <Field
                    className="mt-3"
                    label={t("member.center.quotes.note")}
                    errors={form.errors(`note.${f.id}`)}
                    inputProps={{ name: `note.${f.id}`, maxLength: NOTE_MAX, defaultValue: form.value(`note.${f.id}`) }}
                  />
                </div>
              );
            })}
          </fieldset>
          <NativeSelectField
            label={t("member.center.quotes.store")}
            errors={form.errors("storeId")}
            selectProps={{ name: "storeId", defaultValue: form.value("storeId"), required: true }}
          >
            <option value="">{t("member.center.quotes.storePlaceholder")}</option>
            {d.stores.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </NativeSelectField>
          <TextareaField
            label={t("member.center.quotes.message")}
            description={t("member.center.quotes.messageHint")}
            errors={form.errors("message")}
            textareaProps={{ name: "message", maxLength: MESSAGE_MAX, defaultValue: form.value("message") }}
          />
          <p className="text-sm text-muted">{t("member.center.quotes.limitNote", { limit: d.limit })}</p>
          <Button type="submit" block size="lg" pending={pending}>
            {t("member.center.quotes.send")}
          </Button>
        </Form>
      )}
    </Page>
  );
}
