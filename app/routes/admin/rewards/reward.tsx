import { data, redirect } from "react-router";
import { consoleAudit } from "~/adapters/console.server";
import { getApp } from "~/adapters/context.server";
import { ConsolePage } from "~/components/console/console-page";
import { DetailSection } from "~/components/console/detail-section";
import { RewardForm } from "~/components/console/reward-form";
import { RewardLatest, RewardStatus } from "~/components/console/rewards/reward-panels";
import { RewardStock } from "~/components/console/rewards/reward-stock";
import { useConsoleT } from "~/components/console/use-console-t";
import { Alert } from "~/components/ui/alert";
import { rewardValues, stockSchema } from "~/domain/programme/reward-input";
import {
  adjustStock,
  rewardById,
  setRewardActive,
  stockHistory,
  updateReward,
} from "~/domain/programme/rewards.server";
import { Refusal } from "~/domain/refusals";
import { requirePermission } from "~/domain/staff/guard.server";
import { hasPermission } from "~/domain/staff/permissions";
import { storeChoicesFor } from "~/domain/staff/store-choices.server";
import { requestNow } from "~/lib/clock.server";
import { formFailure, parseForm, readForm } from "~/lib/forms.server";
import { useLocale } from "~/lib/i18n";
import { getLocale, serverT } from "~/lib/i18n.server";
import { pageMeta } from "~/lib/meta";
import { formatTaipei } from "~/lib/time";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/reward";
import { readRewardForm, rewardPicture, rewardRefusal } from "./rewards.server";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.programme.reward.editTitle");

/** The notice after a change (`?saved=1`…) and its wording. */
const DONE = {
  created: "console.programme.reward.created",
  saved: "console.programme.reward.saved",
  retired: "console.programme.reward.retired",
  reactivated: "console.programme.reward.reactivated",
  stock: "console.programme.stock.done",
} as const;

/** One reward (admins): edit over the version seen, retire or offer again, adjust the stock with a reason. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const app = getApp(context);
  const actor = requirePermission(context, "programme.edit");
  const found = await rewardById(app.db, params.rewardId);
  if (!found) throw data(null, { status: 404 });
  const [stores, history] = await Promise.all([
    storeChoicesFor(app.db, actor, getLocale(request)),
    stockHistory(app.db, found.id),
  ]);
  const search = new URL(request.url).searchParams;
  const values = rewardValues(found);
  const done = (Object.keys(DONE) as (keyof typeof DONE)[]).find((d) => search.get(d) === "1");
  return {
    name: found.name,
    active: found.active,
    stock: found.stock,
    version: found.version,
    updatedAt: found.updatedAt.toISOString(),
    values,
    picture: await rewardPicture(app.db, values),
    canUpload: hasPermission(actor, "catalog.edit"),
    stores,
    counts: { issued: history.issued, used: history.used, cancelled: history.cancelled, revoked: history.revoked },
    changes: history.changes.map(({ id, delta, stockAfter, reason, createdAt }) => ({
      id,
      delta,
      stockAfter,
      reason,
      at: createdAt.toISOString(),
    })),
    done: done ? DONE[done] : null,
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const app = getApp(context);
  const actor = requirePermission(context, "programme.edit");
  const form = await readForm(request);
  const t = serverT(request);
  const audit = consoleAudit(context, request);
  const now = requestNow(request, app.config);
  const intent = String(form.get("intent") ?? "");
  const version = Number(form.get("version") ?? "");
  try {
    const found = await rewardById(app.db, params.rewardId);
    if (!found) throw new Refusal("programme", "not_found");
    const at = (done: string) => redirect(`/admin/rewards/${found.id}?${done}=1`);
    if (intent === "stock") {
      const parsed = parseForm(stockSchema(t, found.stock === null), form);
      if (!parsed.ok) return formFailure(parsed.failure);
      await adjustStock(app.db, actor, found.id, parsed.data.change, parsed.data.reason, audit, now);
      return at("stock");
    }
    if (intent === "retire" || intent === "reactivate") {
      await setRewardActive(app.db, actor, found.id, version, intent === "reactivate", audit, now);
      return at(intent === "retire" ? "retired" : "reactivated");
    }
    const stores = await storeChoicesFor(app.db, actor, getLocale(request));
    const parsed = await readRewardForm(app.db, form, t, { stores, withStock: false });
    if (!parsed.ok) return parsed.answer;
    await updateReward(app.db, actor, found.id, version, parsed.data, audit, now);
    return at("saved");
  } catch (error) {
    return rewardRefusal(app.db, error, form, t);
  }
}

export default function EditReward({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const locale = useLocale();
  const form = useFormState();
  const latest = (form.state as { latest?: Record<string, string> } | undefined)?.latest;
  return (
    <ConsolePage
      width="4xl"
      back={{ to: "/admin/rewards", label: t("console.programme.reward.back") }}
      title={
        <>
          {loaderData.name}
          {loaderData.active ? null : (
            <span className="ml-3 rounded-full bg-danger-700/10 px-2 py-0.5 align-middle text-sm text-danger-800">
              {t("console.programme.reward.retiredBadge")}
            </span>
          )}
        </>
      }
    >
      <p className="mt-1 text-sm text-muted tabular-nums" data-testid="reward-version">
        {t("console.programme.reward.version", {
          version: loaderData.version,
          time: formatTaipei(loaderData.updatedAt, locale, "dateTime"),
        })}
      </p>
      <div aria-live="polite" className="mt-4 space-y-3">
        {loaderData.done && !form.state ? <Alert tone="success">{t(loaderData.done)}</Alert> : null}
        {form.formError ? (
          <div data-testid="reward-error">
            <Alert tone="error">{form.formError}</Alert>
          </div>
        ) : null}
        {latest ? <RewardLatest latest={latest} /> : null}
      </div>
      <DetailSection id="edit-title" title={t("console.programme.reward.editTitle")} className="mt-6">
        <RewardForm
          saved={loaderData.values}
          stores={loaderData.stores}
          submitLabel={t("console.programme.reward.save")}
          picture={loaderData.picture}
          canUpload={loaderData.canUpload}
        />
      </DetailSection>
      <RewardStock stock={loaderData.stock} counts={loaderData.counts} changes={loaderData.changes} />
      <RewardStatus active={loaderData.active} version={loaderData.version} />
    </ConsolePage>
  );
}
