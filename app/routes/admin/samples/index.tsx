import { Form, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { consoleAudit } from "~/adapters/console.server";
import { consoleFailure } from "~/adapters/console-failure.server";
import { getApp } from "~/adapters/context.server";
import { counterFailure } from "~/adapters/counter.server";
import { ConsoleList, FilterBar } from "~/components/console/console-list";
import { ConsolePage } from "~/components/console/console-page";
import { FindForm, ScanOrFind } from "~/components/console/counter/forms";
import { StepButton } from "~/components/console/samples/step-button";
import { useConsoleT } from "~/components/console/use-console-t";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Link } from "~/components/ui/link";
import { lookupSchema } from "~/domain/counter/forms.server";
import { findMemberAtCounter } from "~/domain/loyalty/member-lookup.server";
import { CONSOLE_SAMPLE_FILTERS, SAMPLE_STEPS, type SampleStep } from "~/domain/samples/samples";
import { consoleSamples, moveSamples } from "~/domain/samples/samples.server";
import { showroomSettings } from "~/domain/showroom/settings.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { storeChoicesFor } from "~/domain/staff/store-choices.server";
import { requestNow } from "~/lib/clock.server";
import { cn } from "~/lib/cn";
import { formFailure, parseForm, readForm } from "~/lib/forms.server";
import type { MessageKey } from "~/lib/i18n";
import { useLocale } from "~/lib/i18n";
import { getLocale, serverT } from "~/lib/i18n.server";
import { listField, parseListQuery } from "~/lib/list-query";
import { pick } from "~/lib/localized";
import { pageMeta } from "~/lib/meta";
import { formatIsoDate, formatTaipei } from "~/lib/time";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.samples.title");

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const DONE = ["ready", "hand_out", "return"] as const;

/**
 * Samples at the stores (issue 37 part 3, ADR 046): the requests of the stores this person works at (a clerk sees
 * only theirs), by status or overdue; scanning a member's card narrows to that member, whose ready samples are
 * handed out with one button. The query string is read by a spec: unknown values fall back to the defaults.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const actor = requirePermission(context, "samples.manage");
  const app = getApp(context);
  const locale = getLocale(request);
  const stores = await storeChoicesFor(app.db, actor, locale);
  const spec = {
    store: listField.choice(
      stores.map((s) => s.id),
      null,
    ),
    status: listField.choice(CONSOLE_SAMPLE_FILTERS, "open"),
    member: listField.cursor(UUID),
    done: listField.choice(DONE, null),
  };
  const query = parseListQuery(new URL(request.url), spec).values;
  const now = requestNow(request, app.config);
  const rows = await consoleSamples(
    app.db,
    actor,
    { storeId: query.store, filter: query.status, memberId: query.member },
    now,
  );
  const member = query.member ? (rows[0] ? { name: rows[0].memberName, number: rows[0].memberNumber } : null) : null;
  return {
    query,
    stores,
    member,
    loanDays: (await showroomSettings(app.db)).sampleLoanDays,
    rows: rows.map((r) => ({
      id: r.id,
      memberId: r.memberId,
      memberName: r.memberName,
      memberNumber: r.memberNumber,
      material: pick(r.materialName, locale),
      store: pick(r.storeName, locale),
      status: r.status,
      overdue: r.overdue,
      dueBackOn: r.dueBackOn,
      requestedAt: r.requestedAt.toISOString(),
    })),
  };
}

const stepSchema = z.object({
  intent: z.enum(Object.keys(SAMPLE_STEPS) as [SampleStep, ...SampleStep[]]),
  ids: z.array(z.string().regex(UUID)).min(1).max(50),
});

/** Find the member (card or typed), or a step (ready, hand out, returned) on one or more samples of one member. */
export async function action({ request, context }: Route.ActionArgs) {
  const actor = requirePermission(context, "samples.manage");
  const app = getApp(context);
  const t = serverT(request);
  const form = await readForm(request);
  const back = new URL(request.url);
  if (form.get("intent") === "find") {
    const parsed = parseForm(lookupSchema(t), form);
    if (!parsed.ok) return formFailure(parsed.failure);
    try {
      const found = await findMemberAtCounter(app.db, parsed.data.query, {
        cardSecret: app.config.secrets.session,
        now: requestNow(request, app.config),
        audit: consoleAudit(context, request),
      });
      const to = new URLSearchParams({ member: found.id, status: "open" });
      const store = back.searchParams.get("store");
      if (store) to.set("store", store);
      return redirect(`/admin/samples?${to}`);
    } catch (error) {
      return counterFailure(error, { t }, { field: parsed.data.scanned ? undefined : "query" });
    }
  }
  const sent = stepSchema.safeParse({ intent: form.get("intent"), ids: form.getAll("id").map(String) });
  if (!sent.success) return formFailure({ errors: {}, values: {}, formError: t("samples.error.not_found") }, 400);
  try {
    await moveSamples(
      app.db,
      actor,
      sent.data.intent,
      sent.data.ids,
      consoleAudit(context, request),
      requestNow(request, app.config),
    );
  } catch (error) {
    return consoleFailure(error, null, t);
  }
  // Back to the same list (the request's own path is `/admin/samples.data` for a script's submission).
  back.searchParams.delete("index");
  back.searchParams.set("done", sent.data.intent);
  return redirect(`/admin/samples?${back.searchParams}`);
}

export default function Samples({ loaderData: d }: Route.ComponentProps) {
  const t = useConsoleT();
  const locale = useLocale();
  const form = useFormState();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const ready = d.query.member ? d.rows.filter((r) => r.status === "ready") : [];
  return (
    <ConsolePage
      width="5xl"
      title={t("console.samples.title")}
      lead={t("console.samples.lead", { days: d.loanDays })}
      notices={
        form.formError ? (
          <Alert tone="error">{form.formError}</Alert>
        ) : d.query.done ? (
          <Alert tone="success">{t(`console.samples.done.${d.query.done}` as MessageKey, { days: d.loanDays })}</Alert>
        ) : null
      }
    >
      <section aria-labelledby="samples-find" className="mt-6 rounded-3xl border border-line bg-white p-5">
        <h2 id="samples-find" className="text-lg font-semibold">
          {t("console.samples.find.title")}
        </h2>
        <p className="mt-1 text-sm text-muted">{t("console.samples.find.lead")}</p>
        {/* A new member (after a scan) starts a fresh camera: the list's address changed, not the page. */}
        <div className="mt-4" key={d.query.member ?? "none"}>
          <ScanOrFind
            scan={{
              label: t("console.samples.find.scan"),
              testId: "samples-scan",
              fields: (cardToken) => ({ intent: "find", cardToken }),
            }}
          >
            <FindForm
              method="post"
              hidden={{ intent: "find" }}
              pending={busy && navigation.formMethod === "POST"}
              submit={{ label: t("console.counter.find.submit"), variant: "secondary" }}
              field={{
                kind: "text",
                name: "query",
                label: t("console.counter.find.query"),
                description: t("console.counter.find.queryHint"),
                errors: form.errors("query"),
                input: { inputMode: "text", defaultValue: form.value("query") },
              }}
            />
          </ScanOrFind>
        </div>
      </section>

      {d.query.member ? (
        <section
          aria-labelledby="samples-member"
          className="mt-6 rounded-3xl border border-ink/20 bg-sand/40 p-5"
          data-testid="samples-member"
        >
          <h2 id="samples-member" className="text-lg font-semibold">
            {d.member
              ? t("console.samples.member.title", { name: d.member.name, number: d.member.number })
              : t("console.samples.member.none")}
          </h2>
          {ready.length > 0 ? (
            <Form method="post" className="mt-3">
              <input type="hidden" name="intent" value="hand_out" />
              {ready.map((r) => (
                <input key={r.id} type="hidden" name="id" value={r.id} />
              ))}
              <Button type="submit" size="lg" disabled={busy}>
                {t("console.samples.member.handOutAll", { count: ready.length })}
              </Button>
            </Form>
          ) : (
            <p className="mt-2 text-muted">{t("console.samples.member.noneReady")}</p>
          )}
          <Link to="/admin/samples" className="mt-3 inline-block text-sm underline underline-offset-4">
            {t("console.samples.member.clear")}
          </Link>
        </section>
      ) : null}

      <ConsoleList
        filters={
          <FilterBar
            submitLabel={t("console.samples.filter.submit")}
            fields={[
              {
                name: "store",
                value: d.query.store ?? "",
                label: t("console.samples.filter.store"),
                anyOption: true,
                options: d.stores.map((s) => ({ value: s.id, label: s.name })),
              },
              {
                name: "status",
                value: d.query.status,
                label: t("console.samples.filter.status"),
                anyOption: false,
                options: CONSOLE_SAMPLE_FILTERS.map((v) => ({
                  value: v,
                  label: t(`console.samples.filter.status.${v}` as MessageKey),
                })),
              },
            ]}
          >
            {d.query.member ? <input type="hidden" name="member" value={d.query.member} /> : null}
          </FilterBar>
        }
        count={t("console.samples.count", { count: d.rows.length })}
        empty={t("console.samples.empty")}
        emptyTestId="samples-empty"
        label={t("console.samples.title")}
        rows={d.rows}
        rowKey={(r) => r.id}
        columns={[]}
      >
        <ul className="mt-4 space-y-3" data-testid="samples-list">
          {d.rows.map((r) => (
            <li
              key={r.id}
              className="flex flex-wrap items-center justify-between gap-3 rounded-2xl border border-line bg-white p-4"
              data-testid="sample-row"
            >
              <div className="min-w-0">
                <p className="font-medium">{r.material}</p>
                <p className="text-sm text-muted">
                  <Link to={`/admin/members/${r.memberId}`} className="underline underline-offset-4">
                    {r.memberName}
                  </Link>{" "}
                  · {r.memberNumber} · {r.store}
                </p>
                <p className="mt-1 text-sm">
                  <span
                    className={cn(
                      "inline-block rounded-full px-2.5 py-0.5 font-medium",
                      r.overdue ? "bg-white text-danger-800 ring-1 ring-danger-700" : "bg-sand text-ink",
                    )}
                    data-testid="sample-status"
                  >
                    {r.overdue
                      ? t("console.samples.status.overdue")
                      : t(`console.samples.status.${r.status}` as MessageKey)}
                  </span>{" "}
                  <span className="text-muted">
                    {r.dueBackOn
                      ? t("console.samples.dueBack", { date: formatIsoDate(r.dueBackOn, locale) })
                      : t("console.samples.requestedAt", { time: formatTaipei(r.requestedAt, locale, "dateTime") })}
                  </span>
                </p>
              </div>
              <StepButton row={r} busy={busy} />
            </li>
          ))}
        </ul>
      </ConsoleList>
    </ConsolePage>
  );
}
