import { data, Form, redirect, type ShouldRevalidateFunctionArgs, useNavigation } from "react-router";
import { z } from "zod";
import { consoleAudit } from "~/adapters/console.server";
import { consoleFailure } from "~/adapters/console-failure.server";
import { getApp } from "~/adapters/context.server";
import { ConsolePage } from "~/components/console/console-page";
import { DetailSection, TextArea } from "~/components/console/detail-section";
import { quoteDocument } from "~/components/quotes/document-data";
import { QuoteDocument, quantityText } from "~/components/quotes/quote-document";
import { QuoteStatusBadge } from "~/components/quotes/quote-status";
import { Alert } from "~/components/ui/alert";
import { Button, buttonVariants } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Link } from "~/components/ui/link";
import { answerQuote, staffQuote } from "~/domain/quotes/console.server";
import { MESSAGE_MAX, parseQuoteAnswer } from "~/domain/quotes/input";
import { quoteState } from "~/domain/quotes/status";
import { requirePermission } from "~/domain/staff/guard.server";
import { hasPermission } from "~/domain/staff/permissions";
import { requestNow } from "~/lib/clock.server";
import { formFailure, formValues, readForm } from "~/lib/forms.server";
import { parseParam } from "~/lib/http.server";
import { useLocale, useT } from "~/lib/i18n";
import { getLocale, routeMessages, serverT } from "~/lib/i18n.server";
import { pageMeta } from "~/lib/meta";
import { addDays, taipeiDate } from "~/lib/time";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/quote";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.quotes.title");

const quoteId = z.string().uuid();

/** The quote, read by staff of its store (a clerk of another store: 403). */
async function loadQuote(context: Route.LoaderArgs["context"], request: Request, rawId: string | undefined) {
  requirePermission(context, "quotes.view");
  const id = parseParam(quoteId, rawId, request);
  const quote = await staffQuote(getApp(context).db, id);
  if (!quote) throw data(null, { status: 404 });
  const actor = requirePermission(context, "quotes.view", { storeId: quote.storeId });
  return { actor, quote };
}

const iso = (d: { year: number; month: number; day: number }) =>
  `${d.year}-${String(d.month).padStart(2, "0")}-${String(d.day).padStart(2, "0")}`;

/** One quote: the request as a document, and for a requested quote the answer form (prices, validity, message). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { actor, quote } = await loadQuote(context, request, params.quoteId);
  const app = getApp(context);
  const locale = getLocale(request);
  const now = requestNow(request, app.config);
  return {
    messages: routeMessages(locale, "console.quotes.", "member.center.quotes.doc.", "member.center.quotes.unit."),
    id: quote.id,
    // One function decides the status (an answer past its validity is expired), as on every surface (ADR 051).
    status: quoteState(quote, now),
    version: quote.version,
    canAnswer: quote.status === "requested" && hasPermission(actor, "quotes.answer", { storeId: quote.storeId }),
    defaultValidUntil: iso(addDays(taipeiDate(now), 30)),
    answered: new URL(request.url).searchParams.get("answered") === "1",
    ...quoteDocument(quote, locale, `${quote.memberName} · ${quote.memberNumber}`),
  };
}

/** Staff answer over the version shown: checked, audited and the member's message recorded in one transaction. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const { quote } = await loadQuote(context, request, params.quoteId);
  const actor = requirePermission(context, "quotes.answer", { storeId: quote.storeId });
  const app = getApp(context);
  const t = serverT(request);
  const form = await readForm(request);
  const values = formValues(form);
  const now = requestNow(request, app.config);
  const parsed = parseQuoteAnswer(
    values,
    quote.lines.map((l) => l.position),
    now,
    t,
  );
  if (!parsed.ok) return formFailure({ errors: parsed.errors, values, formError: t("console.quotes.error.fix") });
  try {
    await answerQuote(app.db, actor, quote.id, parsed.data, consoleAudit(context, request), now);
  } catch (error) {
    return consoleFailure(error, form, t);
  }
  return redirect(`/admin/quotes/${quote.id}?answered=1`);
}

/** A refused change (409: it moved on meanwhile) reloads the quote, so the page shows it as it is now. */
export function shouldRevalidate({ actionStatus, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (actionStatus === 409) return true;
  return defaultShouldRevalidate;
}

export default function ConsoleQuote({ loaderData: d }: Route.ComponentProps) {
  const t = useT(d.messages);
  const locale = useLocale();
  const form = useFormState();
  const pending = useNavigation().state === "submitting";
  const conflict = Boolean((form.state as { conflict?: boolean } | undefined)?.conflict);
  return (
    <ConsolePage
      width="5xl"
      back={{ to: "/admin/quotes", label: t("console.quotes.back") }}
      title={t("console.quotes.quoteTitle", { reference: d.document.reference })}
      badges={<QuoteStatusBadge state={d.status} label={t(`console.quotes.status.${d.status}`)} />}
      action={
        <Link to={`/admin/quotes/${d.id}/print`} className={buttonVariants({ variant: "secondary" })}>
          {t("console.quotes.printable")}
        </Link>
      }
      notices={
        <>
          {d.answered && !form.state ? <Alert tone="success">{t("console.quotes.answered")}</Alert> : null}
          {form.formError ? (
            <div data-testid="quote-answer-error">
              <Alert tone="error">{form.formError}</Alert>
            </div>
          ) : null}
        </>
      }
    >
      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <DetailSection id="quote-request" title={t("console.quotes.requestTitle")}>
          <QuoteDocument quote={d.document} dates={d.dates} t={t} locale={locale} />
        </DetailSection>
        {d.canAnswer && !conflict ? (
          <Form method="post" noValidate className="min-w-0">
            <DetailSection as="fieldset" title={t("console.quotes.answerTitle")} lead={t("console.quotes.answerLead")}>
              <input type="hidden" name="version" value={d.version} />
              {d.document.lines.map((line) => (
                <Field
                  key={line.position}
                  label={t("console.quotes.price", {
                    position: line.position,
                    name: line.materialName,
                    quantity: quantityText(line.quantity, line.unit, t),
                    unit: t(`member.center.quotes.unit.${line.unit}`),
                  })}
                  errors={form.errors(`price.${line.position}`)}
                  inputProps={
                    {
                      name: `price.${line.position}`,
                      inputMode: "numeric",
                      autoComplete: "off",
                      defaultValue: form.value(`price.${line.position}`),
                      "data-testid": "quote-price",
                    } as React.ComponentProps<"input">
                  }
                />
              ))}
              <Field
                label={t("console.quotes.validUntil")}
                errors={form.errors("validUntil")}
                inputProps={{
                  name: "validUntil",
                  type: "date",
                  defaultValue: form.value("validUntil", d.defaultValidUntil),
                }}
              />
              <TextArea
                label={t("console.quotes.staffMessage")}
                name="staffMessage"
                value={form.value("staffMessage")}
                errors={form.errors("staffMessage")}
                max={MESSAGE_MAX}
                required={false}
              />
              <Button type="submit" pending={pending} data-testid="quote-send">
                {t("console.quotes.send")}
              </Button>
            </DetailSection>
          </Form>
        ) : d.status !== "requested" ? (
          <p className="text-sm text-muted">
            {t("console.quotes.readOnly", { status: t(`console.quotes.status.${d.status}`) })}
          </p>
        ) : null}
      </div>
    </ConsolePage>
  );
}
