import { lazy, Suspense, useCallback, useEffect, useRef, useState } from "react";
import type { CardTokenPayload } from "~/domain/loyalty/card-token-payload";
import { cn } from "~/lib/cn";
import type { Translate } from "~/lib/i18n";
import { links } from "~/lib/links";
import { Countdown, Qr } from "./card-parts";
import { Maximize, QrIcon } from "./icons";

// The full-screen views load on first use (and are fetched when the browser is idle), so the page's
// first download stays small (docs/decisions/014).
const CardFullScreen = lazy(() => import("./overlays").then((m) => ({ default: m.CardFullScreen })));

/** Fetches the overlays' code once the page is idle, so "enlarge" opens at once at the counter. */
export function usePrefetchOverlays() {
  useEffect(() => {
    const idle = window.requestIdleCallback ?? ((run: () => void) => window.setTimeout(run, 1500));
    idle(() => void import("./overlays"));
  }, []);
}

/** The next token is fetched this long before the current one expires, so the code on screen always scans. */
const REFRESH_LEAD_MS = 5_000;
/** After a failed fetch, the next attempt waits this long (the old code stays up until it expires). */
const RETRY_MS = 4_000;

type CardState = {
  payload: CardTokenPayload;
  /** Server clock minus the phone's clock, measured when the token arrived. */
  skewMs: number;
};

function stateOf(payload: CardTokenPayload): CardState {
  return { payload, skewMs: Date.parse(payload.issuedAt) - Date.now() };
}

/**
 * The rotating card token: the server's QR code, replaced shortly before it expires. The countdown
 * runs on the server's clock (the phone's may be wrong); a hidden tab catches up when shown again.
 * A session that ended on the way sends the member to the login page and back here after.
 */
function useCardToken(initial: CardTokenPayload) {
  const [state, setState] = useState<CardState | null>(null);
  const [now, setNow] = useState<number | null>(null);
  const [status, setStatus] = useState<"ok" | "refreshing" | "offline">("ok");
  const inFlight = useRef(false);
  const nextAttempt = useRef(0);
  const current = state ?? { payload: initial, skewMs: 0 };

  const refresh = useCallback(async () => {
    if (inFlight.current || Date.now() < nextAttempt.current) return;
    inFlight.current = true;
    setStatus("refreshing");
    try {
      const res = await fetch(links.cardToken(), { headers: { Accept: "application/json" }, cache: "no-store" });
      if (res.status === 401) {
        window.location.assign(links["member-login"](links["member-center"]()));
        return;
      }
      if (!res.ok) throw new Error(`card token: ${res.status}`);
      setState(stateOf((await res.json()) as CardTokenPayload));
      setStatus("ok");
    } catch {
      nextAttempt.current = Date.now() + RETRY_MS;
      setStatus("offline");
    } finally {
      inFlight.current = false;
    }
  }, []);

  // The server rendered the first token; its clock skew is measured once the page runs.
  useEffect(() => {
    setState(stateOf(initial));
  }, [initial]);

  useEffect(() => {
    if (!state) return;
    const tick = () => {
      const serverNow = Date.now() + state.skewMs;
      setNow(serverNow);
      if (Date.parse(state.payload.expiresAt) - serverNow <= REFRESH_LEAD_MS) void refresh();
    };
    tick();
    const timer = window.setInterval(tick, 1000);
    document.addEventListener("visibilitychange", tick);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener("visibilitychange", tick);
    };
  }, [state, refresh]);

  const issued = Date.parse(current.payload.issuedAt);
  const rotateAt = Date.parse(current.payload.expiresAt) - REFRESH_LEAD_MS;
  const periodSeconds = Math.ceil((rotateAt - issued) / 1000);
  const secondsLeft = now === null ? periodSeconds : Math.max(0, Math.ceil((rotateAt - now) / 1000));
  const expired = now !== null && now >= Date.parse(current.payload.expiresAt);
  return { payload: current.payload, periodSeconds, secondsLeft, status, expired };
}

type MemberCardProps = {
  t: Translate;
  name: string;
  memberNumber: string;
  tierLabel: string;
  tier: "basic" | "silver" | "gold";
  initialToken: CardTokenPayload;
};

const TIER_BADGE: Record<MemberCardProps["tier"], string> = {
  basic: "bg-paper/10 text-paper ring-paper/30",
  silver: "bg-[#e7e7ea] text-[#2b2b31] ring-white/40",
  gold: "bg-[#e9cf8f] text-[#3b2a08] ring-[#f4e3b5]/50",
};

/** The member card: name, number, tier, the rotating QR code and its full-screen "bright" mode. */
export function MemberCard({ t, name, memberNumber, tierLabel, tier, initialToken }: MemberCardProps) {
  const { payload, periodSeconds, secondsLeft, status, expired } = useCardToken(initialToken);
  const [full, setFull] = useState(false);
  usePrefetchOverlays();
  const wakeLock = useRef<{ release(): Promise<void> } | null>(null);

  // Full-screen mode keeps the screen awake while the clerk scans (where the browser allows it).
  useEffect(() => {
    if (!full) return;
    const nav = navigator as Navigator & {
      wakeLock?: { request(type: "screen"): Promise<{ release(): Promise<void> }> };
    };
    nav.wakeLock
      ?.request("screen")
      .then((lock) => {
        wakeLock.current = lock;
      })
      .catch(() => {});
    return () => {
      void wakeLock.current?.release().catch(() => {});
      wakeLock.current = null;
    };
  }, [full]);

  const trouble = status === "offline" || expired;
  const qrLabel = t("member.center.card.qrLabel", { seconds: periodSeconds });

  return (
    <section
      aria-label={t("member.center.card.label")}
      className="relative overflow-hidden rounded-[1.75rem] bg-ink p-5 text-paper shadow-[0_20px_50px_-24px_rgba(31,28,24,0.6)] sm:p-6"
      data-testid="member-card"
    >
      {/* A quiet walnut glow in one corner: the brand's material, not decoration for its own sake. */}
      <div
        aria-hidden
        className="pointer-events-none absolute -top-24 -right-20 size-64 rounded-full bg-[radial-gradient(circle,rgba(201,165,136,0.35),transparent_65%)]"
      />
      <div className="relative flex items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="text-xs tracking-[0.32em] text-brand-300 uppercase">Han Living · {t("brand.name")}</p>
          <p className="mt-2 truncate font-serif text-2xl font-semibold tracking-wide" data-testid="card-name">
            {name}
          </p>
        </div>
        <span
          className={cn("shrink-0 rounded-full px-3 py-1 text-sm font-semibold ring-1", TIER_BADGE[tier])}
          data-testid="tier-badge"
        >
          {tierLabel}
        </span>
      </div>

      <div className="relative mt-5 flex items-center gap-4">
        {/*
          Named by its code's label (會員條碼，每 40 秒更新), never by the token itself: a screen reader has no use
          for 50 random characters. Tests read the live token from data-token, which nothing reads aloud.
        */}
        <button
          type="button"
          onClick={() => setFull(true)}
          className="group shrink-0 rounded-2xl bg-white p-2 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-300"
          data-testid="card-qr"
          data-token={payload.token}
        >
          <Qr svg={payload.svg} label={qrLabel} className="size-32 sm:size-36" key={payload.token} />
        </button>
        <div className="min-w-0 text-sm">
          <p className="text-paper/70">{t("member.number")}</p>
          <p className="font-mono text-lg tracking-[0.14em]" data-testid="member-number">
            {memberNumber}
          </p>
          {/* Only a problem is announced; the ticking countdown would talk over everything else. */}
          <p className="mt-3 text-[#f3c9bd] empty:hidden" aria-live="polite">
            {trouble ? t("member.center.card.offline") : null}
          </p>
          {trouble ? null : (
            <p className="mt-3 text-paper/80">
              {status === "refreshing" ? (
                t("member.center.card.refreshing")
              ) : (
                <Countdown secondsLeft={secondsLeft} period={periodSeconds} t={t} dark />
              )}
            </p>
          )}
        </div>
      </div>

      <div className="relative mt-5 flex flex-wrap items-center justify-between gap-3 border-t border-paper/15 pt-4">
        <p className="text-xs text-paper/70">{t("member.center.card.rotates", { seconds: periodSeconds })}</p>
        <button
          type="button"
          onClick={() => setFull(true)}
          className="inline-flex min-h-11 items-center gap-2 rounded-full bg-paper px-4 text-sm font-semibold text-ink hover:bg-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-300"
          data-testid="card-enlarge"
        >
          <Maximize className="size-4" />
          {t("member.center.card.enlarge")}
        </button>
        {/* The offline member card (ADR 043): its own page, kept by a service worker, installable. */}
        <a
          href="/member-center/card"
          className="inline-flex min-h-11 items-center rounded-full px-2 text-sm font-semibold text-paper underline underline-offset-4 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-300"
          data-testid="card-offline-link"
        >
          {t("member.center.card.openOffline")}
        </a>
      </div>

      {full ? (
        <Suspense fallback={null}>
          <CardFullScreen
            t={t}
            memberNumber={memberNumber}
            payload={payload}
            trouble={trouble}
            icon={<QrIcon className="mx-auto mb-2 block size-6 text-brand-700" />}
            qr={<Qr svg={payload.svg} label={qrLabel} className="mt-6 aspect-square w-full max-w-[min(80vw,22rem)]" />}
            countdown={<Countdown secondsLeft={secondsLeft} period={periodSeconds} t={t} />}
            onClose={() => setFull(false)}
          />
        </Suspense>
      ) : null}
    </section>
  );
}
