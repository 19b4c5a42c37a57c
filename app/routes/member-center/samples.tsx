import { data, Form, useNavigation } from "react-router";
import { z } from "zod";
import { getApp, toastSettings } from "~/adapters/context.server";
import { requireMember } from "~/adapters/current-member.server";
import { Page } from "~/components/layout/page";
import { Button, buttonVariants } from "~/components/ui/button";
import { Link } from "~/components/ui/link";
import { isRefusal } from "~/domain/refusals";
import { cancelSample, memberSamples } from "~/domain/samples/samples.server";
import { showroomSettings } from "~/domain/showroom/settings.server";
import { requestNow } from "~/lib/clock.server";
import { cn } from "~/lib/cn";
import { readForm } from "~/lib/forms.server";
import { type MessageKey, useLocale, useT } from "~/lib/i18n";
import { getLocale, routeMessages } from "~/lib/i18n.server";
import { pick } from "~/lib/localized";
import { pageMeta } from "~/lib/meta";
import { formatIsoDate, formatTaipei } from "~/lib/time";
import { redirectWithToast } from "~/lib/toast.server";
import type { Route } from "./+types/samples";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "samples.title");

/** The member's samples (issue 37 part 3): what is out and due back (overdue marked), waiting, and the past. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { member } = requireMember(context, request);
  const locale = getLocale(request);
  const app = getApp(context);
  const { open, closed } = await memberSamples(app.db, member.id, requestNow(request, app.config));
  const view = (r: (typeof open)[number]) => ({
    id: r.id,
    material: pick(r.materialName, locale),
    materialId: r.materialId,
    store: pick(r.storeName, locale),
    status: r.status,
    overdue: r.overdue,
    dueBackOn: r.dueBackOn,
    at: (r.returnedAt ?? r.cancelledAt ?? r.handedOutAt ?? r.readyAt ?? r.requestedAt).toISOString(),
  });
  return data(
    {
      messages: routeMessages(locale, "samples."),
      limit: (await showroomSettings(app.db)).sampleLimit,
      open: open.map(view),
      closed: closed.map(view),
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

const cancelForm = z.object({ intent: z.literal("cancel"), id: z.uuid() });

/** Cancels one of the member's samples not yet handed out; a forged or another member's id is a 404. */
export async function action({ request, context }: Route.ActionArgs) {
  const { member } = requireMember(context, request);
  const app = getApp(context);
  const form = await readForm(request);
  const sent = cancelForm.safeParse({ intent: form.get("intent"), id: form.get("id") });
  if (!sent.success) throw data(null, { status: 400, statusText: "Bad Request" });
  try {
    await cancelSample(app.db, member.id, sent.data.id, requestNow(request, app.config));
  } catch (error) {
    if (isRefusal(error, "samples")) throw data(null, { status: error.status });
    throw error;
  }
  return redirectWithToast(toastSettings(context), "/member-center/samples", {
    type: "success",
    message: "notice.sampleCancelled",
  });
}

const STATUS_TONE: Record<string, string> = {
  requested: "bg-sand text-ink",
  ready: "bg-success-50 text-success-700",
  handed_out: "bg-brand-50 text-brand-800",
  returned: "bg-sand text-muted",
  cancelled: "bg-sand text-muted",
};

export default function SamplesPage({ loaderData: d }: Route.ComponentProps) {
  const t = useT(d.messages);
  const locale = useLocale();
  const busy = useNavigation().state !== "idle";
  const out = d.open.filter((r) => r.status === "handed_out");
  const waiting = d.open.filter((r) => r.status !== "handed_out");
  const overdue = out.filter((r) => r.overdue).length;
  return (
    <Page title={t("samples.title")} lead={t("samples.lead", { limit: d.limit })} width="narrow">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Link to="/member-center" className="text-sm font-semibold text-brand-700 underline underline-offset-4">
          {t("samples.toCenter")}
        </Link>
        <Link to="/member-center/samples/new" className={buttonVariants({ size: "sm" })}>
          {t("samples.requestMore")}
        </Link>
      </div>
      <p className="mt-4 text-sm text-muted" data-testid="samples-count">
        {t("samples.openCount", { open: d.open.length, limit: d.limit })}
      </p>

      <section aria-labelledby="samples-out" className="mt-6">
        <h2 id="samples-out" className="text-lg font-semibold">
          {t("samples.out.title")}
        </h2>
        {overdue > 0 ? (
          <p className="mt-2 rounded-xl border border-danger-700 bg-white px-4 py-3 text-danger-800" role="status">
            {t("samples.out.overdueNotice", { count: overdue })}
          </p>
        ) : null}
        {out.length === 0 ? (
          <p className="mt-2 text-muted">{t("samples.out.empty")}</p>
        ) : (
          <ul className="mt-3 divide-y divide-line rounded-2xl border border-line bg-white" data-testid="samples-out">
            {out.map((r) => (
              <li key={r.id} className="px-4 py-3">
                <p className="font-medium">{r.material}</p>
                <p className="text-sm text-muted">{r.store}</p>
                <p className={cn("mt-1 text-sm font-semibold", r.overdue ? "text-danger-800" : "text-ink")}>
                  {r.dueBackOn
                    ? t(r.overdue ? "samples.out.overdue" : "samples.out.dueBack", {
                        date: formatIsoDate(r.dueBackOn, locale),
                      })
                    : null}
                </p>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="samples-waiting" className="mt-8">
        <h2 id="samples-waiting" className="text-lg font-semibold">
          {t("samples.waiting.title")}
        </h2>
        {waiting.length === 0 ? (
          <p className="mt-2 text-muted">{t("samples.waiting.empty")}</p>
        ) : (
          <ul
            className="mt-3 divide-y divide-line rounded-2xl border border-line bg-white"
            data-testid="samples-waiting"
          >
            {waiting.map((r) => (
              <li key={r.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
                <div className="min-w-0">
                  <p className="font-medium">{r.material}</p>
                  <p className="text-sm text-muted">{r.store}</p>
                  <span
                    className={cn(
                      "mt-1 inline-block rounded-full px-2.5 py-0.5 text-sm font-medium",
                      STATUS_TONE[r.status],
                    )}
                  >
                    {t(`samples.status.${r.status}` as MessageKey)}
                  </span>
                </div>
                <Form method="post">
                  <input type="hidden" name="intent" value="cancel" />
                  <input type="hidden" name="id" value={r.id} />
                  <Button type="submit" variant="secondary" size="sm" disabled={busy}>
                    {t("samples.cancel")}
                    <span className="sr-only"> {r.material}</span>
                  </Button>
                </Form>
              </li>
            ))}
          </ul>
        )}
      </section>

      {d.closed.length > 0 ? (
        <section aria-labelledby="samples-past" className="mt-8">
          <h2 id="samples-past" className="text-lg font-semibold">
            {t("samples.past.title")}
          </h2>
          <ul className="mt-3 divide-y divide-line text-sm">
            {d.closed.map((r) => (
              <li key={r.id} className="flex flex-wrap justify-between gap-2 py-2">
                <span>
                  {r.material} · {r.store}
                </span>
                <span className="text-muted">
                  {t(`samples.status.${r.status}` as MessageKey)} ·{" "}
                  <time dateTime={r.at}>{formatTaipei(r.at, locale)}</time>
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </Page>
  );
}
