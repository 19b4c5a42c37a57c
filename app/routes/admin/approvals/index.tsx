import { redirect } from "react-router";
import { z } from "zod";
import { consoleAudit, requireRecentSecondFactorFor } from "~/adapters/console.server";
import { consoleFailure } from "~/adapters/console-failure.server";
import { getApp } from "~/adapters/context.server";
import { ConsoleList } from "~/components/console/console-list";
import { ConsolePage } from "~/components/console/console-page";
import { type PendingGrant, PendingGrants } from "~/components/console/grants/grant-approvals";
import { ApprovalCard, type Asking, DecisionStepUp } from "~/components/console/staff/approval-card";
import { PageNotices } from "~/components/console/staff/post-forms";
import { useConsoleT } from "~/components/console/use-console-t";
import { pendingGrants } from "~/domain/imports/grants.server";
import { approveAdjustment, pendingAdjustments, rejectAdjustment } from "~/domain/loyalty/adjustments.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { requestNow } from "~/lib/clock.server";
import { formFailure, parseForm, readForm } from "~/lib/forms.server";
import { getLocale, serverT } from "~/lib/i18n.server";
import { pick } from "~/lib/localized";
import { pageMeta } from "~/lib/meta";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.approvals.title");

/**
 * Adjustments above a manager's limit, waiting for a second admin (four-eyes, ADR 023), and the bulk grants
 * waiting the same way (ADR 038), each of those decided on its own page.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const actor = requirePermission(context, "points.approve");
  const locale = getLocale(request);
  const db = getApp(context).db;
  const [rows, grants] = await Promise.all([pendingAdjustments(db, actor), pendingGrants(db, actor)]);
  const done = new URL(request.url).searchParams.get("done");
  return {
    done: done === "approved" || done === "rejected" ? (done as "approved" | "rejected") : null,
    pending: rows.map((row) => ({
      id: row.id,
      memberName: row.memberName,
      memberNumber: row.memberNumber,
      amount: row.amount,
      reason: row.reason,
      detail: row.detail,
      requesterName: row.requesterName,
      storeName: row.storeName ? pick(row.storeName, locale) : null,
      requestedAt: row.requestedAt.toISOString(),
      own: row.requestedBy === actor.userId,
    })),
    grants: grants.map(
      (g): PendingGrant => ({
        id: g.id,
        reason: g.reason,
        total: g.total,
        rows: g.rowsTotal,
        starterName: g.starterName,
        createdAt: g.createdAt.toISOString(),
        own: g.createdBy === actor.userId,
      }),
    ),
  };
}

/** A decision: which adjustment (an unknown one is the domain's refusal), approved or rejected. */
const decisionSchema = z.object({ adjustmentId: z.string().default(""), intent: z.enum(["approve", "reject"]) });

export async function action({ request, context }: Route.ActionArgs) {
  const app = getApp(context);
  requirePermission(context, "points.approve");
  const form = await readForm(request);
  const t = serverT(request);
  const stepUp = await requireRecentSecondFactorFor(context, request, form);
  if (!stepUp.ok) return stepUp.answer;
  const parsed = parseForm(decisionSchema, form);
  if (!parsed.ok) return formFailure({ ...parsed.failure, formError: t("console.approvals.error.intent") });
  const { adjustmentId: id, intent } = parsed.data;
  try {
    const decide = intent === "approve" ? approveAdjustment : rejectAdjustment;
    await decide(app.db, stepUp.actor, id, consoleAudit(context, request), requestNow(request, app.config));
    return redirect(`/admin/approvals?done=${intent === "approve" ? "approved" : "rejected"}`);
  } catch (error) {
    // The booking's refusals (the loyalty area's) worded for this page; a decision's own refusals are the table's.
    return consoleFailure(error, null, t, {
      wording: {
        insufficient_points: "console.approvals.error.insufficient_points",
        member_disabled: "console.approvals.error.member_disabled",
        "*": "console.adjust.error.conflict",
      },
    });
  }
}

export default function Approvals({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const form = useFormState();
  const asking: Asking | null =
    form.state && "stepUp" in form.state
      ? {
          adjustmentId: form.value("adjustmentId"),
          intent: form.value("intent"),
          errors: form.errors("stepUpCode"),
        }
      : null;
  // The step-up code is asked inside the card of the adjustment it decides, its button naming it.
  const askingRow = loaderData.pending.find((row) => row.id === asking?.adjustmentId) ?? null;
  return (
    <ConsolePage
      width="5xl"
      title={t("console.approvals.title")}
      lead={t("console.approvals.lead")}
      notices={
        <PageNotices
          done={loaderData.done && !form.state ? t(`console.approvals.done.${loaderData.done}`) : null}
          error={form.formError}
        >
          {asking && !askingRow ? <DecisionStepUp asking={asking} row={null} /> : null}
        </PageNotices>
      }
    >
      <h2 id="approvals-adjustments-title" className="mt-2 font-serif text-xl font-semibold">
        {t("console.approvals.adjustmentsTitle")}
      </h2>
      <ConsoleList
        empty={t("console.approvals.empty")}
        emptyTestId="approvals-empty"
        label={t("console.approvals.title")}
        rows={loaderData.pending}
        rowKey={(row) => row.id}
        columns={[]}
      >
        <ul className="mt-4 space-y-4" data-testid="approvals-list">
          {loaderData.pending.map((row) => (
            <ApprovalCard key={row.id} row={row} asking={askingRow?.id === row.id ? asking : null} />
          ))}
        </ul>
      </ConsoleList>
      <PendingGrants grants={loaderData.grants} />
    </ConsolePage>
  );
}
