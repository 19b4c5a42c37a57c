import type { ReactNode } from "react";
import { type Column, ConsoleTable } from "~/components/console/console-list";
import { DetailSection } from "~/components/console/detail-section";
import { useConsoleT } from "~/components/console/use-console-t";
import type { ConsoleMemberView } from "~/domain/members/console.server";
import { useLocale } from "~/lib/i18n";
import { formatTaipei } from "~/lib/time";
import { ledgerWords } from "./ledger-words";

/** One history of the member page: a titled card with its table, or the line saying there is nothing yet. */
function HistoryTable<Row extends { id: string }>({
  id,
  title,
  empty,
  rows,
  columns,
  testId,
  rowTestId,
  className,
}: {
  id: string;
  title: ReactNode;
  empty: ReactNode;
  rows: readonly Row[];
  columns: Column<Row>[];
  testId?: string;
  rowTestId?: string;
  className?: string;
}) {
  return (
    <DetailSection id={id} title={title} className={className}>
      {rows.length === 0 ? (
        <p className="text-sm text-muted">{empty}</p>
      ) : (
        <ConsoleTable
          labelledBy={id}
          minWidth="28rem"
          rows={rows}
          rowKey={(r) => r.id}
          columns={columns}
          testId={testId}
          rowTestId={rowTestId}
        />
      )}
    </DetailSection>
  );
}

/** The member's points history, purchases, tier changes and messages, newest first. */
export function MemberHistory({
  member: m,
  storeNames,
}: {
  member: ConsoleMemberView;
  storeNames: Record<string, string>;
}) {
  const t = useConsoleT();
  const locale = useLocale();
  const n = (v: number) => v.toLocaleString("en-US");
  const day = (at: string) => formatTaipei(at, locale, "date");
  const tier = (name: string) => t(`console.counter.tier.${name}` as "console.counter.tier.basic");
  const nothing = t("console.members.nothingYet");
  const when = <R extends { at: string }>(): Column<R> => ({
    key: "when",
    header: t("console.members.col.date"),
    className: "tabular-nums whitespace-nowrap",
    cell: (r) => day(r.at),
  });
  return (
    <>
      <div className="mt-6 grid grid-cols-1 gap-6 lg:grid-cols-2">
        <HistoryTable
          id="ledger-title"
          title={t("console.members.ledger")}
          empty={nothing}
          rows={m.entries}
          testId="member-ledger"
          columns={[
            {
              key: "entry",
              header: t("console.members.col.entry"),
              cell: (e) => {
                const words = ledgerWords(e, t, locale);
                return (
                  <>
                    {words.kind}
                    {words.reason ? <span className="ml-2 text-muted">{words.reason}</span> : null}
                  </>
                );
              },
            },
            {
              key: "points",
              header: t("console.members.col.points"),
              className: "tabular-nums",
              cell: (e) => (e.amount > 0 ? `+${n(e.amount)}` : n(e.amount)),
            },
            when(),
          ]}
        />
        <div className="space-y-6">
          <HistoryTable
            id="purchases-title"
            title={t("console.members.purchases")}
            empty={nothing}
            rows={m.purchases.map((p) => ({ ...p, at: p.purchasedAt }))}
            columns={[
              {
                key: "store",
                header: t("console.members.col.store"),
                className: "whitespace-nowrap",
                cell: (p) => storeNames[p.storeId] ?? p.storeId,
              },
              {
                key: "receipt",
                header: t("console.members.col.receipt"),
                className: "font-mono whitespace-nowrap",
                cell: (p) => p.receiptNumber,
              },
              {
                key: "amount",
                header: t("console.members.col.amount"),
                className: "tabular-nums whitespace-nowrap",
                cell: (p) => `NT$ ${n(p.netAmount - p.refundedAmount)}`,
              },
              when(),
            ]}
          />
          {m.tiers.length ? (
            <HistoryTable
              id="tiers-title"
              title={t("console.members.tierHistory")}
              empty={nothing}
              rows={m.tiers}
              columns={[
                {
                  key: "change",
                  header: t("console.members.col.change"),
                  cell: (c) => `${tier(c.from)} → ${tier(c.to)}`,
                },
                when(),
              ]}
            />
          ) : null}
        </div>
      </div>
      <HistoryTable
        id="messages-title"
        title={t("console.messages.member.title")}
        empty={t("console.messages.member.empty")}
        className="mt-6"
        rows={m.messages}
        testId="member-messages"
        rowTestId="member-message"
        columns={[
          {
            key: "when",
            header: t("console.messages.member.col.when"),
            className: "tabular-nums",
            cell: (x) => formatTaipei(x.sentAt ?? x.at, locale, "dateTime"),
          },
          {
            key: "what",
            header: t("console.messages.member.col.what"),
            className: "break-words",
            cell: (x) => x.campaign ?? t(`console.messages.kind.${x.kind}` as "console.messages.kind.welcome"),
          },
          {
            key: "channel",
            header: t("console.messages.member.col.channel"),
            cell: (x) =>
              x.channel ? t(`console.messages.channel.${x.channel}` as "console.messages.channel.line") : "—",
          },
          {
            key: "status",
            header: t("console.messages.member.col.status"),
            cell: (x) => t(`console.messages.results.${x.status}` as "console.messages.results.sent"),
          },
        ]}
      />
    </>
  );
}
