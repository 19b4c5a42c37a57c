import type { Dashboard } from "./dashboard.server";

/** The dashboard's panels that can be downloaded as CSV (one table each, the same figures as on the page). */
export const DASHBOARD_PANELS = [
  "signups",
  "sales",
  "stores",
  "points",
  "liability",
  "tiers",
  "moves",
  "rewards",
  "cohorts",
  // 展示廳 (ADR 048).
  "appointments",
  "visits",
  "samples",
  "quotes",
] as const;
export type DashboardPanel = (typeof DASHBOARD_PANELS)[number];

export function isDashboardPanel(value: string): value is DashboardPanel {
  return (DASHBOARD_PANELS as readonly string[]).includes(value);
}

type Cell = string | number | null;

/** A CSV cell: quoted, and a leading = + - @ tab or CR neutralised (spreadsheet formula injection). */
export function csvCell(value: Cell): string {
  if (value === null) return "";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${text.replace(/"/g, '""')}"`;
}

/** The rows (header first) of a panel; null when the panel is not part of this view (programme-only). */
export function panelRows(d: Dashboard, panel: DashboardPanel, storeName: (id: string) => string): Cell[][] | null {
  switch (panel) {
    case "signups":
      if (!d.programme) return null;
      return [
        ["day", "phone", "line", "total"],
        ...d.days.map((r) => [r.day, r.signupsPhone, r.signupsLine, r.signupsPhone + r.signupsLine]),
      ];
    case "sales":
      return [["day", "purchases", "net_sales_ntd"], ...d.days.map((r) => [r.day, r.purchases, r.netSales])];
    case "stores":
      return [
        ["store_id", "store", "purchases", "sales_ntd", "refunds_ntd", "net_sales_ntd"],
        ...d.stores.map((s) => [s.storeId, storeName(s.storeId), s.purchases, s.sales, s.refunds, s.netSales]),
      ];
    case "points":
      return [
        ["month", "issued", "redeemed", "cancelled", "expired", "reversed_by_refunds"],
        ...d.months.map((m) => [m.month.slice(0, 7), m.issued, m.redeemed, m.cancelled, m.expired, m.reversed]),
      ];
    case "liability":
      if (!d.liability) return null;
      return [
        ["what", "points", "ntd"],
        ["outstanding", d.liability.points, d.liability.ntd],
        ...d.liability.expiring.map((e) => [`expiring ${e.month.slice(0, 7)}`, e.points, e.ntd]),
      ];
    case "tiers":
      if (!d.tiers) return null;
      return [["tier", "members", "points"], ...d.tiers.map((t) => [t.tier, t.members, t.points])];
    case "moves":
      if (!d.tierMoves) return null;
      return [["from", "to", "changes"], ...d.tierMoves.map((m) => [m.from, m.to, m.moves])];
    case "rewards":
      return [
        ["reward_id", "reward", "redeemed", "used", "cancelled", "revoked", "points"],
        ...d.rewards.map((r) => [r.rewardId, r.name, r.issued, r.used, r.cancelled, r.revoked, r.points]),
      ];
    case "cohorts":
      return [
        ["signup_month", "members", ...d.cohorts.months.map((_, k) => `month_${k}`)],
        ...d.cohorts.rows.map((r) => [
          r.signupMonth.slice(0, 7),
          r.size,
          ...r.active.map((a) => (a === null || r.size === 0 ? null : Math.round((a / r.size) * 10_000) / 10_000)),
        ]),
      ];
    case "appointments":
      return [
        ["store_id", "store", "kind", "booked", "upcoming", "kept", "no_show", "cancelled"],
        ...d.showroom.appointments.rows.map((r) => [
          r.storeId,
          storeName(r.storeId),
          r.kind,
          r.booked,
          r.upcoming,
          r.kept,
          r.noShow,
          r.cancelled,
        ]),
        ["", "total", "", ...appointmentCells(d.showroom.appointments.total)],
      ];
    case "visits":
      return [
        [
          "store_id",
          "store",
          "kind",
          "kept_by_members",
          "bought_30d",
          "share_30d",
          "amount_30d_ntd",
          "bought_90d",
          "share_90d",
          "amount_90d_ntd",
          "window_open_30d",
          "window_open_90d",
        ],
        ...d.showroom.visits.rows.map((r) => [r.storeId, storeName(r.storeId), r.kind, ...visitCells(r)]),
        ["", "total", "", ...visitCells(d.showroom.visits.total)],
      ];
    case "samples": {
      const cells = (c: Dashboard["showroom"]["samples"]["total"]): Cell[] => [c.handedOut, c.out, c.overdue];
      return [
        ["store_id", "store", "handed_out", "out_now", "overdue_now"],
        ...d.showroom.samples.rows.map((r) => [r.storeId, storeName(r.storeId), ...cells(r)]),
        ["", "total", ...cells(d.showroom.samples.total)],
      ];
    }
    case "quotes": {
      const cells = (c: Dashboard["showroom"]["quotes"]["total"]): Cell[] => [
        c.requested,
        c.answered,
        c.bought,
        share(c.bought, c.answered),
        c.purchases,
        c.amount,
        c.open,
      ];
      return [
        [
          "store_id",
          "store",
          "requested",
          "answered",
          "bought_30d",
          "share_30d",
          "purchases_30d",
          "amount_30d_ntd",
          "window_open_30d",
        ],
        ...d.showroom.quotes.rows.map((r) => [r.storeId, storeName(r.storeId), ...cells(r)]),
        ["", "total", ...cells(d.showroom.quotes.total)],
      ];
    }
  }
}

const share = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 10_000) / 10_000 : null);

function appointmentCells(c: Dashboard["showroom"]["appointments"]["total"]): Cell[] {
  return [c.booked, c.upcoming, c.kept, c.noShow, c.cancelled];
}

function visitCells(v: Dashboard["showroom"]["visits"]["total"]): Cell[] {
  return [
    v.kept,
    v.bought30,
    share(v.bought30, v.kept),
    v.amount30,
    v.bought90,
    share(v.bought90, v.kept),
    v.amount90,
    v.open30,
    v.open90,
  ];
}

export function toCsv(rows: Cell[][]): string {
  return `\uFEFF${rows.map((r) => r.map(csvCell).join(",")).join("\r\n")}\r\n`;
}
