import { data, Form, redirect, useNavigation } from "react-router";
import { consoleAudit } from "~/adapters/console.server";
import { consoleFailure } from "~/adapters/console-failure.server";
import { getApp } from "~/adapters/context.server";
import { ConsolePage } from "~/components/console/console-page";
import { RewardForm } from "~/components/console/reward-form";
import type { RewardPicture } from "~/components/console/reward-image-field";
import { TableScroll } from "~/components/console/table-scroll";
import { useConsoleT } from "~/components/console/use-console-t";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { parseRewardForm, parseStockForm } from "~/domain/programme/input";
import {
  adjustStock,
  type Reward,
  rewardById,
  setRewardActive,
  stockHistory,
  updateReward,
} from "~/domain/programme/rewards.server";
import { isRefusal, isVersionConflict } from "~/domain/refusals";
import { requirePermission } from "~/domain/staff/guard.server";
import { hasPermission } from "~/domain/staff/permissions";
import { storeChoicesFor } from "~/domain/staff/store-choices.server";
import { requestNow } from "~/lib/clock.server";
import { readForm } from "~/lib/forms.server";
import { useLocale } from "~/lib/i18n";
import { getLocale, serverT } from "~/lib/i18n.server";
import { pageMeta } from "~/lib/meta";
import { formatTaipei } from "~/lib/time";
import { useFormState } from "~/lib/use-form-state";
import { problemMessages } from "../form-answers.server";
import type { Route } from "./+types/reward";
import { rewardPicture, rewardValues, typedValues } from "./rewards.server";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.programme.reward.editTitle");

const DONE = ["created", "saved", "retired", "reactivated", "stock"] as const;

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
  return {
    id: found.id,
    name: found.name,
    active: found.active,
    stock: found.stock,
    version: found.version,
    updatedAt: found.updatedAt.toISOString(),
    values,
    picture: await rewardPicture(app.db, values),
    canUpload: hasPermission(actor, "catalog.edit"),
    stores,
    issued: history.issued,
    used: history.used,
    cancelled: history.cancelled,
    changes: history.changes.map((c) => ({
      id: c.id,
      delta: c.delta,
      stockAfter: c.stockAfter,
      reason: c.reason,
      at: c.createdAt.toISOString(),
    })),
    done: DONE.find((d) => search.get(d) === "1") ?? null,
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const app = getApp(context);
  const actor = requirePermission(context, "programme.edit");
  const form = await readForm(request);
  const t = serverT(request);
  const audit = consoleAudit(context, request);
  const now = requestNow(request, app.config);
  const found = await rewardById(app.db, params.rewardId);
  if (!found) return data({ formError: t("console.programme.error.notFound") }, { status: 404 });
  const intent = String(form.get("intent") ?? "");
  const version = Number(form.get("version") ?? "");
  const values = typedValues(form);
  try {
    if (intent === "stock") {
      const parsed = parseStockForm(form, found.stock === null);
      if (!parsed.ok) return data({ errors: problemMessages(parsed.problems, t), values }, { status: 400 });
      await adjustStock(app.db, actor, found.id, parsed.value.change, parsed.value.reason, audit, now);
      return redirect(`/admin/rewards/${found.id}?stock=1`);
    }
    if (intent === "retire" || intent === "reactivate") {
      await setRewardActive(app.db, actor, found.id, version, intent === "reactivate", audit, now);
      return redirect(`/admin/rewards/${found.id}?${intent === "retire" ? "retired" : "reactivated"}=1`);
    }
    const stores = await storeChoicesFor(app.db, actor, getLocale(request));
    const parsed = parseRewardForm(form, { knownStoreIds: stores.map((s) => s.id), withStock: false });
    if (!parsed.ok) {
      return data(
        {
          errors: problemMessages(parsed.problems, t),
          values,
          picture: await rewardPicture(app.db, values),
          formError: t("console.programme.error.fix"),
        },
        { status: 400 },
      );
    }
    await updateReward(app.db, actor, found.id, version, parsed.value, audit, now);
    return redirect(`/admin/rewards/${found.id}?saved=1`);
  } catch (error) {
    if (isVersionConflict(error)) {
      // The answer carries the latest version (a refused action does not reload the page's data).
      const latest = rewardValues(error.current as Reward);
      return consoleFailure(error, null, t, {
        values: { ...values, version: latest.version ?? "" },
        answer: { latest, picture: await rewardPicture(app.db, values) },
      });
    }
    const imageMissing = isRefusal(error, "programme") && error.code === "image_missing";
    return consoleFailure(error, null, t, { values, answer: imageMissing ? { picture: null } : {} });
  }
}

export default function EditReward({ loaderData, actionData }: Route.ComponentProps) {
  const t = useConsoleT();
  const locale = useLocale();
  const form = useFormState();
  const pending = useNavigation().state === "submitting";
  const state = form.state as { conflict?: boolean; latest?: Record<string, string> } | undefined;
  const intent = form.value("intent");
  const editState = intent === "save" || !intent;
  // After a conflict the form keeps what was typed but saves over the latest version (shown above it).
  const version = form.value("version", String(loaderData.version));
  const value = (field: string) =>
    editState && form.state?.values ? form.value(field) : (loaderData.values[field] ?? "");
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
        {loaderData.done && !form.state ? (
          <Alert tone="success">
            {t(
              `console.programme.${loaderData.done === "stock" ? "stock.done" : `reward.${loaderData.done}`}` as "console.programme.stock.done",
            )}
          </Alert>
        ) : null}
        {form.formError ? (
          <div data-testid="reward-error">
            <Alert tone="error">{form.formError}</Alert>
          </div>
        ) : null}
        {state?.latest ? (
          <dl
            className="grid gap-x-4 gap-y-1 rounded-2xl border border-line bg-sand/40 p-4 text-sm sm:grid-cols-[auto_1fr]"
            data-testid="reward-latest"
          >
            {(["name", "pointsCost", "perMemberLimit", "validFrom", "validUntil"] as const).map((f) => (
              <div key={f} className="contents">
                <dt className="text-muted">{t(`console.programme.reward.${f}`)}</dt>
                <dd>{state.latest?.[f] || "—"}</dd>
              </div>
            ))}
          </dl>
        ) : null}
      </div>

      <section className="mt-6 rounded-2xl border border-line bg-white p-5" aria-labelledby="edit-title">
        <h2 id="edit-title" className="mb-4 text-lg font-semibold">
          {t("console.programme.reward.editTitle")}
        </h2>
        <RewardForm
          key={`${loaderData.version}-${version}`}
          value={value}
          errors={editState ? form.errors : () => null}
          stores={loaderData.stores}
          withStock={false}
          submitLabel={t("console.programme.reward.save")}
          version={version}
          picture={
            editState && actionData && "picture" in actionData
              ? ((actionData.picture ?? null) as RewardPicture)
              : loaderData.picture
          }
          canUpload={loaderData.canUpload}
        />
      </section>

      <section className="mt-6 rounded-2xl border border-line bg-white p-5" aria-labelledby="stock-title">
        <h2 id="stock-title" className="text-lg font-semibold">
          {t("console.programme.stock.title")}
        </h2>
        <p className="mt-2 text-sm" data-testid="reward-stock">
          {t("console.programme.stock.now", {
            stock:
              loaderData.stock === null
                ? t("console.programme.rewards.unlimited")
                : loaderData.stock.toLocaleString("en-US"),
          })}
        </p>
        <p className="mt-1 text-sm text-muted">
          {t("console.programme.stock.counts", {
            issued: loaderData.issued,
            used: loaderData.used,
            cancelled: loaderData.cancelled,
          })}
        </p>
        <Form method="post" className="mt-4 grid gap-4 sm:grid-cols-2" noValidate>
          <input type="hidden" name="intent" value="stock" />
          {loaderData.stock === null ? (
            <Field
              label={t("console.programme.stock.set")}
              errors={intent === "stock" ? form.errors("stock") : null}
              inputProps={{
                name: "stock",
                inputMode: "numeric",
                defaultValue: intent === "stock" ? form.value("stock") : "",
              }}
            />
          ) : (
            <Field
              label={t("console.programme.stock.delta")}
              description={t("console.programme.stock.deltaHint")}
              errors={intent === "stock" ? form.errors("delta") : null}
              inputProps={{
                name: "delta",
                inputMode: "numeric",
                defaultValue: intent === "stock" ? form.value("delta") : "",
              }}
            />
          )}
          <Field
            label={t("console.programme.stock.reason")}
            errors={intent === "stock" ? form.errors("reason") : null}
            inputProps={{
              name: "reason",
              required: true,
              maxLength: 200,
              defaultValue: intent === "stock" ? form.value("reason") : "",
            }}
          />
          {loaderData.stock === null ? null : (
            <label className="flex items-center gap-2 text-sm sm:col-span-2">
              <input type="checkbox" name="unlimited" className="size-4 accent-brand-700" />
              {t("console.programme.stock.unlimited")}
            </label>
          )}
          <div className="sm:col-span-2">
            <Button type="submit" variant="secondary" pending={pending && intent === "stock"}>
              {t("console.programme.stock.submit")}
            </Button>
          </div>
        </Form>
        <h3 id="stock-history-title" className="mt-6 font-semibold">
          {t("console.programme.stock.history")}
        </h3>
        <p className="mt-1 text-sm text-muted">{t("console.programme.stock.historyHint")}</p>
        {loaderData.changes.length === 0 ? (
          <p className="mt-3 text-sm text-muted">{t("console.programme.stock.none")}</p>
        ) : (
          <TableScroll labelledBy="stock-history-title" className="mt-3">
            <table className="w-full min-w-[32rem] text-left text-sm" data-testid="stock-history">
              <thead className="border-b border-line text-muted">
                <tr>
                  {(["time", "change", "after", "reason"] as const).map((c) => (
                    <th key={c} scope="col" className="py-2 pr-4 font-medium">
                      {t(`console.programme.stock.col.${c}`)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-line">
                {loaderData.changes.map((c) => (
                  <tr key={c.id}>
                    <td className="py-2 pr-4 tabular-nums">{formatTaipei(c.at, locale, "dateTime")}</td>
                    <td className="py-2 pr-4 tabular-nums">
                      {c.delta === null ? "—" : c.delta > 0 ? `+${c.delta}` : String(c.delta)}
                    </td>
                    <td className="py-2 pr-4 tabular-nums">
                      {c.stockAfter === null ? t("console.programme.rewards.unlimited") : c.stockAfter}
                    </td>
                    <td className="py-2 pr-4 break-words">
                      {c.reason === "initial stock" ? t("console.programme.stock.initial") : c.reason}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>

      <section className="mt-6 rounded-2xl border border-line bg-white p-5" aria-labelledby="status-title">
        <h2 id="status-title" className="text-lg font-semibold">
          {t("console.programme.reward.statusTitle")}
        </h2>
        <p className="mt-2 text-sm text-muted">{t("console.programme.reward.retireHint")}</p>
        <Form method="post" className="mt-4">
          <input type="hidden" name="intent" value={loaderData.active ? "retire" : "reactivate"} />
          <input type="hidden" name="version" value={loaderData.version} />
          <Button type="submit" variant={loaderData.active ? "danger" : "secondary"}>
            {loaderData.active ? t("console.programme.reward.retire") : t("console.programme.reward.reactivate")}
          </Button>
        </Form>
      </section>
    </ConsolePage>
  );
}
