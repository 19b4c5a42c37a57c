import { data, Form, type ShouldRevalidateFunctionArgs, useNavigation } from "react-router";
import { z } from "zod";
import { getApp, toastSettings } from "~/adapters/context.server";
import { requireMember } from "~/adapters/current-member.server";
import { Page } from "~/components/layout/page";
import { quoteDocument } from "~/components/quotes/document-data";
import { QuoteDocument } from "~/components/quotes/quote-document";
import { QuoteStatusBadge } from "~/components/quotes/quote-status";
import { Alert } from "~/components/ui/alert";
import { Button, buttonVariants } from "~/components/ui/button";
import { Link } from "~/components/ui/link";
import { decideQuote, MEMBER_DECISIONS, memberQuote } from "~/domain/quotes/quotes.server";
import { quoteState } from "~/domain/quotes/status";
import { requestNow } from "~/lib/clock.server";
import { formFailure, readForm } from "~/lib/forms.server";
import { parseParam } from "~/lib/http.server";
import { useLocale, useT } from "~/lib/i18n";
import { getLocale, routeMessages, serverT } from "~/lib/i18n.server";
import { links } from "~/lib/links";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/quote";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "member.center.quotes.title");

const quoteId = z.string().uuid();
const decisionForm = z.object({
  intent: z.enum(MEMBER_DECISIONS),
  version: z.coerce.number().int().min(1).max(1_000_000),
});

/** One of the member's quotes: the request, the answer once given, print, book a consultation, decide. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { member } = requireMember(context, request);
  const app = getApp(context);
  const locale = getLocale(request);
  const id = parseParam(quoteId, params.quoteId, request);
  const quote = await memberQuote(app.db, member.id, id);
  if (!quote) throw data(null, { status: 404 });
  const now = requestNow(request, app.config);
  return data(
    {
      messages: routeMessages(locale, "member.center.quotes."),
      id: quote.id,
      storeId: quote.storeId,
      version: quote.version,
      state: quoteState(quote, now),
      ...quoteDocument(quote, locale),
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

/** Accept, close or withdraw, for the session's member only, over the version shown. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const { member } = requireMember(context, request);
  const app = getApp(context);
  const t = serverT(request);
  const id = parseParam(quoteId, params.quoteId, request);
  const form = await readForm(request);
  const parsed = decisionForm.safeParse(Object.fromEntries(form));
  if (!parsed.success)
    return formFailure({ errors: {}, values: {}, formError: t("member.center.quotes.error.changed") });
  const now = requestNow(request, app.config);
  const result = await decideQuote(app.db, member.id, id, parsed.data.intent, parsed.data.version, now);
  if (!result.ok) {
    if (result.code === "not_found") throw data(null, { status: 404 });
    const key = result.code === "expired" ? "member.center.quotes.error.expired" : "member.center.quotes.error.changed";
    return formFailure({ errors: {}, values: {}, formError: t(key) }, 409);
  }
  const notice = {
    accept: "notice.quoteAccepted",
    close: "notice.quoteClosed",
    withdraw: "notice.quoteWithdrawn",
  } as const;
  return redirectWithToast(toastSettings(context), links.memberQuote(id), {
    type: "success",
    message: notice[parsed.data.intent],
  });
}

/** A refused change (409: it moved on meanwhile) reloads the quote, so the page shows it as it is now. */
export function shouldRevalidate({ actionStatus, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (actionStatus === 409) return true;
  return defaultShouldRevalidate;
}

export default function MemberQuotePage({ loaderData: d }: Route.ComponentProps) {
  const t = useT(d.messages);
  const locale = useLocale();
  const form = useFormState();
  const pending = useNavigation().state === "submitting";
  const answered = d.document.total !== null;
  return (
    <Page
      title={t("member.center.quotes.detailTitle", { reference: d.document.reference })}
      lead={
        d.state === "requested"
          ? t("member.center.quotes.waiting")
          : d.state === "expired"
            ? t("member.center.quotes.expiredLead", { date: d.dates.validUntil ?? "" })
            : answered
              ? t("member.center.quotes.answeredLead", { date: d.dates.validUntil ?? "" })
              : undefined
      }
    >
      <div className="-mt-4 mb-6 flex flex-wrap items-center justify-between gap-3">
        <Link
          to={links.memberQuotes()}
          className="inline-flex min-h-11 items-center text-sm font-semibold text-brand-700 hover:underline"
        >
          {t("member.center.quotes.backToList")}
        </Link>
        <QuoteStatusBadge state={d.state} label={t(`member.center.quotes.status.${d.state}`)} />
      </div>
      <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <QuoteDocument quote={d.document} dates={d.dates} t={t} locale={locale} />
        <aside className="space-y-4">
          {form.formError ? (
            <div data-testid="quote-decision-error">
              <Alert tone="error">{form.formError}</Alert>
            </div>
          ) : null}
          {answered ? (
            <div className="space-y-2 rounded-2xl border border-line bg-white p-4">
              <Link
                to={links.memberQuotePrint(d.id)}
                className={buttonVariants({ variant: "secondary", block: true })}
                data-testid="quote-printable"
              >
                {t("member.center.quotes.printable")}
              </Link>
              <p className="text-sm text-muted">{t("member.center.quotes.printHint")}</p>
            </div>
          ) : null}
          <div className="space-y-2 rounded-2xl border border-line bg-white p-4">
            <Link
              to={links.bookConsultation(d.storeId)}
              className={buttonVariants({ block: true })}
              data-testid="quote-book"
            >
              {t("member.center.quotes.book")}
            </Link>
            <p className="text-sm text-muted">{t("member.center.quotes.bookHint", { store: d.document.storeName })}</p>
          </div>
          {d.state === "requested" || d.state === "answered" || d.state === "expired" ? (
            <Form method="post" className="space-y-2 rounded-2xl border border-line bg-white p-4">
              <h2 className="font-semibold">{t("member.center.quotes.decide")}</h2>
              <input type="hidden" name="version" value={d.version} />
              {d.state === "answered" ? (
                <Button type="submit" name="intent" value="accept" block pending={pending} data-testid="quote-accept">
                  {t("member.center.quotes.accept")}
                </Button>
              ) : null}
              {d.state !== "requested" ? (
                <Button type="submit" name="intent" value="close" variant="secondary" block>
                  {t("member.center.quotes.close")}
                </Button>
              ) : (
                <Button
                  type="submit"
                  name="intent"
                  value="withdraw"
                  variant="secondary"
                  block
                  data-testid="quote-withdraw"
                >
                  {t("member.center.quotes.withdraw")}
                </Button>
              )}
            </Form>
          ) : null}
        </aside>
      </div>
    </Page>
  );
}
