import { cn } from "~/lib/cn";
import type { Translate } from "~/lib/i18n";

/** Pieces the member card and its full-screen view share. */
export function Countdown({
  secondsLeft,
  period,
  t,
  dark,
}: {
  secondsLeft: number;
  period: number;
  t: Translate;
  dark?: boolean;
}) {
  const fraction = period > 0 ? Math.min(1, secondsLeft / period) : 0;
  const circumference = 2 * Math.PI * 9;
  return (
    <span className="inline-flex items-center gap-2" data-testid="card-countdown">
      <svg viewBox="0 0 24 24" className="size-5 -rotate-90" aria-hidden>
        <circle
          cx="12"
          cy="12"
          r="9"
          fill="none"
          strokeWidth="3"
          className={dark ? "stroke-paper/20" : "stroke-line"}
        />
        <circle
          cx="12"
          cy="12"
          r="9"
          fill="none"
          strokeWidth="3"
          strokeLinecap="round"
          strokeDasharray={circumference}
          strokeDashoffset={circumference * (1 - fraction)}
          className={cn(
            "transition-[stroke-dashoffset] duration-1000 ease-linear",
            dark ? "stroke-brand-300" : "stroke-brand-700",
          )}
        />
      </svg>
      <span className="tabular-nums">{t("member.center.card.refreshIn", { seconds: secondsLeft })}</span>
    </span>
  );
}

export function Qr({ svg, label, className }: { svg: string; label: string; className?: string }) {
  return (
    <div
      role="img"
      aria-label={label}
      className={cn("[&>svg]:block [&>svg]:size-full", className)}
      // The markup is our own server's QR rendering (app/lib/qr.server.ts), never user input.
      // biome-ignore lint/security/noDangerouslySetInnerHtml: server-rendered SVG of a token we issued
      dangerouslySetInnerHTML={{ __html: svg }}
    />
  );
}
