import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { useLocale } from "~/lib/i18n";
import { formatTaipei } from "~/lib/time";
import { useFormState } from "~/lib/use-form-state";
import { ConsoleTable } from "../console-list";
import { DetailSection } from "../detail-section";
import { useConsoleT } from "../use-console-t";

export type StockChangeRow = {
  id: number;
  delta: number | null;
  stockAfter: number | null;
  reason: string;
  at: string;
};

/**
 * A reward's stock (ADR 029): what is left, the coupons issued, used, cancelled and revoked, the adjustment form (a signed
 * change with a reason; for an unlimited reward a stock to set; or unlimited) and the adjustments made.
 */
export function RewardStock({
  stock,
  counts,
  changes,
}: {
  stock: number | null;
  counts: { issued: number; used: number; cancelled: number; revoked: number };
  changes: StockChangeRow[];
}) {
  const t = useConsoleT();
  const locale = useLocale();
  const form = useFormState();
  const mine = form.value("intent") === "stock";
  const pending = useNavigation().state === "submitting" && mine;
  const unlimited = stock === null;
  const field = (name: string, label: string, extra: { description?: string; required?: boolean } = {}) => (
    <Field
      label={label}
      description={extra.description}
      errors={mine ? form.errors(name) : null}
      inputProps={{
        name,
        ...(name === "reason" ? { required: true, maxLength: 200 } : { inputMode: "numeric" }),
        defaultValue: mine ? form.value(name) : "",
      }}
    />
  );
  return (
    <DetailSection id="stock-title" title={t("console.programme.stock.title")} className="mt-6">
      <p className="mt-2 text-sm" data-testid="reward-stock">
        {t("console.programme.stock.now", {
          stock: unlimited ? t("console.programme.rewards.unlimited") : stock.toLocaleString("en-US"),
        })}
      </p>
      <p className="mt-1 text-sm text-muted">{t("console.programme.stock.counts", counts)}</p>
      <Form method="post" className="mt-4 grid gap-4 sm:grid-cols-2" noValidate>
        <input type="hidden" name="intent" value="stock" />
        {unlimited
          ? field("stock", t("console.programme.stock.set"))
          : field("delta", t("console.programme.stock.delta"), { description: t("console.programme.stock.deltaHint") })}
        {field("reason", t("console.programme.stock.reason"))}
        {unlimited ? null : (
          <label className="flex items-center gap-2 text-sm sm:col-span-2">
            <input type="checkbox" name="unlimited" className="size-4 accent-brand-700" />
            {t("console.programme.stock.unlimited")}
          </label>
        )}
        <div className="sm:col-span-2">
          <Button type="submit" variant="secondary" pending={pending}>
            {t("console.programme.stock.submit")}
          </Button>
        </div>
      </Form>
      <h3 id="stock-history-title" className="mt-6 font-semibold">
        {t("console.programme.stock.history")}
      </h3>
      <p className="mt-1 text-sm text-muted">{t("console.programme.stock.historyHint")}</p>
      {changes.length === 0 ? (
        <p className="mt-3 text-sm text-muted">{t("console.programme.stock.none")}</p>
      ) : (
        <ConsoleTable
          labelledBy="stock-history-title"
          className="mt-3"
          minWidth="32rem"
          testId="stock-history"
          rows={changes}
          rowKey={(c) => String(c.id)}
          columns={[
            {
              key: "time",
              header: t("console.programme.stock.col.time"),
              className: "tabular-nums",
              cell: (c) => formatTaipei(c.at, locale, "dateTime"),
            },
            {
              key: "change",
              header: t("console.programme.stock.col.change"),
              className: "tabular-nums",
              cell: (c) => (c.delta === null ? "—" : `${c.delta > 0 ? "+" : ""}${c.delta}`),
            },
            {
              key: "after",
              header: t("console.programme.stock.col.after"),
              className: "tabular-nums",
              cell: (c) => (c.stockAfter === null ? t("console.programme.rewards.unlimited") : c.stockAfter),
            },
            {
              key: "reason",
              header: t("console.programme.stock.col.reason"),
              className: "break-words",
              cell: (c) => (c.reason === "initial stock" ? t("console.programme.stock.initial") : c.reason),
            },
          ]}
        />
      )}
    </DetailSection>
  );
}
