import { redirect, useNavigation } from "react-router";
import { z } from "zod";
import { consoleFailure } from "~/adapters/console-failure.server";
import { counterAction, counterPage } from "~/adapters/counter.server";
import { ConsolePage } from "~/components/console/console-page";
import { LendForm, useAnsweredErrors } from "~/components/console/samples/lend-form";
import { useConsoleT } from "~/components/console/use-console-t";
import { Alert } from "~/components/ui/alert";
import { Link } from "~/components/ui/link";
import { checkScanPass } from "~/domain/counter/scan-pass.server";
import { Refusal } from "~/domain/refusals";
import { auditForgedScan, lendable, lendSamples, loanMember } from "~/domain/samples/counter-loan.server";
import { dueBackOn } from "~/domain/samples/samples.server";
import { showroomSettings } from "~/domain/showroom/settings.server";
import { formFailure, parseForm } from "~/lib/forms.server";
import { notFound, parseParam } from "~/lib/http.server";
import type { MessageKey } from "~/lib/i18n";
import { useLocale } from "~/lib/i18n";
import { getLocale } from "~/lib/i18n.server";
import { pick } from "~/lib/localized";
import { pageMeta } from "~/lib/meta";
import { formatIsoDate } from "~/lib/time";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/samples";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.counter.member.lend");

const memberIdSchema = z.string().uuid();
const scanSchema = z.string().max(80).nullable().catch(null);
/** A material id as the catalogue writes them (a slug); anything else is not a material here. */
const MATERIAL_ID = /^[a-z0-9]+(?:-[a-z0-9]+){0,10}$/;

/**
 * Lend samples at the counter (issue 37 part 3, ADR 046): after the member's card was scanned at this store (the
 * scan proof in `?scan=`), the materials with samples here, to hand out at once with the due-back day.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { actor, store, db, now, app } = counterPage(context, request, "samples.manage");
  const memberId = parseParam(memberIdSchema, params.memberId, request);
  const who = await loanMember(db, memberId);
  if (!who) notFound(request);
  const url = new URL(request.url);
  const scan = scanSchema.parse(url.searchParams.get("scan"));
  const subject = { memberId, storeId: store, userId: actor.userId };
  const check = checkScanPass(app.config.secrets.session, scan, subject, now);
  const locale = getLocale(request);
  const [offer, settings] = await Promise.all([
    check === "ok" ? lendable(db, store, memberId) : null,
    showroomSettings(db),
  ]);
  const lent = Number(url.searchParams.get("lent") ?? "");
  return {
    member: { id: who.id, name: who.name, number: who.memberNumber, disabled: who.disabled },
    scan: check === "ok" ? scan : null,
    lent: Number.isInteger(lent) && lent > 0 && lent <= settings.sampleLimit ? lent : null,
    dueBackOn: dueBackOn(now, settings.sampleLoanDays),
    limit: settings.sampleLimit,
    open: offer?.open ?? 0,
    materials: (offer?.materials ?? []).map((m) => ({ id: m.id, name: pick(m.name, locale), open: m.open })),
  };
}

function loanSchema(t: (key: MessageKey, params?: Record<string, string>) => string, limit: number) {
  return z.object({
    scan: z.string().max(80).default(""),
    materials: z
      .string()
      .default("")
      .transform((v) => [...new Set(v.split(",").filter(Boolean))])
      .check((ctx) => {
        const ids = ctx.value;
        const message =
          ids.length === 0
            ? t("console.counter.samples.error.none_chosen")
            : ids.length > limit
              ? t("console.counter.samples.error.over_limit", { limit: String(limit) })
              : ids.some((id) => id.length > 80 || !MATERIAL_ID.test(id))
                ? t("console.counter.samples.error.no_samples")
                : null;
        if (message) ctx.issues.push({ code: "custom", message, input: ids });
      }),
  });
}

/** The loan: the scan proof first, then all or nothing within the member's limit (one statement decides it). */
export async function action({ request, context, params }: Route.ActionArgs) {
  const desk = await counterAction(context, request, "samples.manage");
  const { actor, store, db, now, t, app, clerk } = desk;
  const memberId = parseParam(memberIdSchema, params.memberId, request);
  // The boxes are one name repeated: joined, as the form refills them.
  const form = new FormData();
  for (const [key, value] of desk.form) if (key !== "materials") form.append(key, value);
  form.set("materials", desk.form.getAll("materials").map(String).join(","));
  const parsed = parseForm(loanSchema(t, (await showroomSettings(db)).sampleLimit), form);
  if (!parsed.ok) return formFailure({ ...parsed.failure, formError: t("samples.error.form") });
  const values = { materials: parsed.data.materials.join(",") };
  const wording = {
    no_samples: "console.counter.samples.error.no_samples",
    already_requested: "console.counter.samples.error.already_requested",
    over_limit: "console.counter.samples.error.over_limit",
  } as const;
  try {
    const subject = { memberId, storeId: store, userId: actor.userId };
    const check = checkScanPass(app.config.secrets.session, parsed.data.scan || null, subject, now);
    if (check === "forged") await auditForgedScan(db, clerk.audit, memberId, now);
    if (check !== "ok") throw new Refusal("samples", "scan_required");
    const done = await lendSamples(
      db,
      actor,
      { memberId, storeId: store, materialIds: parsed.data.materials },
      clerk.audit,
      now,
    );
    const to = new URLSearchParams({ scan: parsed.data.scan, lent: String(done.ids.length) });
    return redirect(`/admin/counter/member/${memberId}/samples?${to}`);
  } catch (error) {
    return consoleFailure(error, null, t, { values, wording });
  }
}

export default function CounterSamples({ loaderData: d }: Route.ComponentProps) {
  const t = useConsoleT();
  const locale = useLocale();
  const busy = useNavigation().state !== "idle";
  const form = useFormState();
  // The summary above goes with the boxes' error when a tick answers it (a refusal without a field error stays).
  const materialsError = form.errors("materials");
  const { shown, answer } = useAnsweredErrors(materialsError);
  const summary = materialsError?.length && !shown ? null : form.formError;
  const memberPage = `/admin/counter/member/${d.member.id}${d.scan ? `?scan=${encodeURIComponent(d.scan)}` : ""}`;
  const due = formatIsoDate(d.dueBackOn, locale);
  return (
    <ConsolePage
      pace="counter"
      width="3xl"
      back={{ to: memberPage, label: d.member.name }}
      title={t("console.counter.samples.title", { name: d.member.name })}
      lead={t("console.counter.samples.lead", { date: due, limit: String(d.limit) })}
      notices={
        summary ? (
          <Alert tone="error">{summary}</Alert>
        ) : d.lent ? (
          <Alert tone="success">{t("console.counter.samples.done", { count: String(d.lent), date: due })}</Alert>
        ) : null
      }
    >
      {d.scan && !d.member.disabled ? (
        <>
          <p className="mt-4 font-medium" data-testid="lend-open-count">
            {t("console.counter.samples.openCount", { open: String(d.open), limit: String(d.limit) })}
          </p>
          <LendForm
            materials={d.materials}
            scan={d.scan}
            busy={busy}
            chosen={new Set(form.value("materials").split(",").filter(Boolean))}
            shown={shown}
            onTicked={answer}
          />
        </>
      ) : (
        <Alert tone="info" className="mt-6">
          {d.member.disabled
            ? t("console.counter.samples.error.member_unavailable")
            : t("console.counter.samples.scanFirst")}{" "}
          <Link to="/admin/counter" className="underline underline-offset-4">
            {t("console.counter.samples.toCounter")}
          </Link>
        </Alert>
      )}
      <Link
        to={`/admin/samples?member=${d.member.id}&status=open`}
        className="mt-6 inline-block text-sm underline underline-offset-4"
      >
        {t("console.counter.samples.toSamples")}
      </Link>
    </ConsolePage>
  );
}
