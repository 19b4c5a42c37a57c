import { useEffect, useRef } from "react";

export type ChartSeries = { label: string; color: string; values: number[]; kind?: "line" | "bars" };

/**
 * A time chart drawn by uPlot, loaded on demand (a dynamic import in an effect: only the dashboard downloads it,
 * and the page is complete without it — every chart has its table beside it). Decorative for assistive technology:
 * the figures are in the table.
 */
export function TimeChart({
  days,
  series,
  label,
  height = 220,
  monthly = false,
}: {
  /** ISO dates (Taipei days or first days of months), one per point. */
  days: string[];
  series: ChartSeries[];
  label: string;
  height?: number;
  monthly?: boolean;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el || days.length === 0) return;
    let plot: { destroy(): void; setSize(s: { width: number; height: number }): void } | null = null;
    let observer: ResizeObserver | null = null;
    let cancelled = false;
    void import("uplot").then(({ default: UPlot }) => {
      if (cancelled) return;
      // Noon UTC of each day: the labels stay on the right calendar day whatever the viewer's time zone.
      const xs = days.map((d) => Date.parse(`${d}T12:00:00Z`) / 1000);
      const bars = UPlot.paths.bars?.({ size: [0.7, 40] });
      const half = (monthly ? 15 : 0.5) * 86_400;
      plot = new UPlot(
        {
          width: el.clientWidth || 600,
          height,
          tzDate: (ts: number) => UPlot.tzDate(new Date(ts * 1000), "UTC"),
          legend: { show: true, live: false },
          cursor: { drag: { x: false, y: false } },
          scales: {
            x: {
              time: true,
              // From the data, not uPlot's bounds: a month's or a day's point sits in the middle of its slot. (For one
              // point uPlot widens the range by 1,000 days, which put a lone month at the left edge.)
              range: (): [number, number] => [(xs[0] ?? 0) - half, (xs[xs.length - 1] ?? 0) + half],
            },
            // From zero: a bar that starts above the axis's bottom says the wrong size (a day of NT$3,500 looked
            // like nothing beside NT$12,000 when uPlot started the axis near the smallest value).
            y: {
              range: (_u: unknown, min: number | null, max: number | null): [number, number] => [
                Math.min(0, min ?? 0),
                (max ?? 0) > 0 ? (max as number) * 1.08 : 1,
              ],
            },
          },
          axes: [
            {
              stroke: "#5e574e",
              grid: { stroke: "#ece6dd", width: 1 },
              ticks: { stroke: "#d9d1c5", width: 1 },
              // Months: one tick per month of the data (every k-th when they do not fit), labelled YYYY-MM; uPlot's
              // own time ticks would put years between the months, or only years, for a short range.
              ...(monthly || xs.length === 1
                ? {
                    splits: (u: { bbox: { width: number } }) => {
                      const width = u.bbox.width / (window.devicePixelRatio || 1);
                      const step = Math.max(1, Math.ceil(xs.length / Math.max(1, Math.floor(width / 72))));
                      return xs.filter((_, i) => i % step === 0);
                    },
                    values: (_u: unknown, vals: number[]) => vals.map((v) => tickLabel(v, monthly)),
                  }
                : { values: "{M}/{D}" }),
              space: monthly ? 72 : 50,
            },
            {
              stroke: "#5e574e",
              grid: { stroke: "#ece6dd", width: 1 },
              ticks: { show: false },
              size: 64,
              values: (_u: unknown, vals: number[]) => vals.map((v) => compact(v)),
            },
          ],
          series: [
            {},
            ...series.map((s) => ({
              label: s.label,
              stroke: s.color,
              width: s.kind === "bars" ? 0 : 2,
              fill: s.kind === "bars" ? s.color : `${s.color}14`,
              paths: s.kind === "bars" ? bars : undefined,
              points: { show: days.length <= 31 },
            })),
          ],
        },
        [xs, ...series.map((s) => s.values)],
        el,
      );
      observer = new ResizeObserver(() => plot?.setSize({ width: el.clientWidth, height }));
      observer.observe(el);
    });
    return () => {
      cancelled = true;
      observer?.disconnect();
      plot?.destroy();
    };
  }, [days, series, height, monthly]);
  return <div ref={box} role="img" aria-label={label} className="dashboard-chart min-h-[220px] w-full" />;
}

/** An x-axis label for a point at noon UTC: "2026-03" for a month, "3/14" for a day. */
function tickLabel(ts: number, monthly: boolean): string {
  const d = new Date(ts * 1000);
  return monthly
    ? `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, "0")}`
    : `${d.getUTCMonth() + 1}/${d.getUTCDate()}`;
}

function compact(v: number): string {
  const abs = Math.abs(v);
  if (abs >= 1_000_000) return `${(v / 1_000_000).toFixed(abs >= 10_000_000 ? 0 : 1)}M`;
  if (abs >= 10_000) return `${Math.round(v / 1000)}k`;
  return v.toLocaleString("en-US");
}
