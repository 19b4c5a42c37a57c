import { version } from "virtual:card-bundle";
import { getApp } from "~/adapters/context.server";
import { requireMember } from "~/adapters/current-member.server";
import { listCardDevices } from "~/domain/loyalty/card-devices.server";
import { memberCenterSummary } from "~/domain/loyalty/member-center.server";
import { CARD_STEP_SECONDS } from "~/lib/card-code";
import { formatNumber } from "~/lib/i18n";
import { getLocale, serverT } from "~/lib/i18n.server";
import { formatTaipei } from "~/lib/time";
import type { Route } from "./+types/page";

/**
 * GET /member-center/card: the offline member card (ADR 043). Its own small HTML page, not a React page: no
 * framework code to download or run, so it opens at once from the service worker's cache without a network
 * (the worker keeps this page and its script; nothing else of the site). The QR is drawn on the phone from the
 * device's own secret (app/card/card.client.ts); the page carries the member's number, name and balance, and says
 * when that balance was read, because a page from the cache shows it as it was then.
 */
export const CARD_PATHS = {
  page: "/member-center/card",
  script: "/member-center/card/app.js",
  worker: "/member-center/card/sw.js",
  manifest: "/member-center/card/manifest.webmanifest",
  register: "/member-center/card/device",
} as const;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

/** JSON inside a `<script type="application/json">`: no "</script>" or "<!--" can end it early. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");

export async function loader({ request, context }: Route.LoaderArgs) {
  const session = requireMember(context, request);
  const { db, nonce } = getApp(context);
  const locale = getLocale(request);
  const t = serverT(request);
  const now = new Date();
  const [summary, devices] = await Promise.all([
    memberCenterSummary(db, session.member.id, now),
    listCardDevices(db, session.member.id),
  ]);
  const seconds = String(CARD_STEP_SECONDS);
  const data = {
    memberId: session.member.id,
    devices: devices.map((d) => d.id),
    registerUrl: CARD_PATHS.register,
    swUrl: `${CARD_PATHS.worker}`,
    swScope: CARD_PATHS.page,
    text: {
      refreshIn: t("member.card.refreshIn", { seconds: "{seconds}" }),
      register: t("member.card.register"),
      needsNetwork: t("member.card.needsNetwork"),
      removed: t("member.card.removed"),
      offline: t("member.card.offline"),
    },
  };
  const html = `<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="theme-color" content="#1f1c18">
<meta name="robots" content="noindex">
<title>${escapeHtml(t("member.card.title"))} · ${escapeHtml(t("brand.name"))}</title>
<link rel="manifest" href="${CARD_PATHS.manifest}">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="apple-touch-icon" href="/member-card/icon-192.png">
<link rel="modulepreload" href="${CARD_PATHS.script}?v=${version}" nonce="${nonce}">
<style>
*{box-sizing:border-box}body{margin:0;font-family:system-ui,-apple-system,"PingFang TC","Noto Sans TC",sans-serif;background:#faf8f4;color:#1f1c18}
main{max-width:28rem;margin:0 auto;padding:1.25rem 1rem 2rem}
.card{background:#1f1c18;color:#faf8f4;border-radius:1rem;padding:1.25rem}
.card h1{font-size:1rem;font-weight:600;margin:0 0 .25rem;letter-spacing:.05em}
.name{font-size:1.375rem;font-weight:700;margin:.25rem 0}.number{font-family:ui-monospace,monospace;letter-spacing:.1em;margin:0}
.qr{background:#fff;border-radius:.75rem;margin:1rem auto 0;width:min(100%,17rem);aspect-ratio:1;padding:.5rem}
.qr svg{display:block;width:100%;height:100%}
.countdown{text-align:center;margin:.5rem 0 0;font-variant-numeric:tabular-nums}
.balance{margin:1.25rem 0 0;font-size:1.125rem}.balance strong{font-size:1.75rem}
.muted{color:#5c554d;font-size:.9375rem}.status{min-height:1.5rem;margin:.75rem 0 0}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
a{color:#5f3d28;font-weight:600}
</style>
</head>
<body>
<main>
<section class="card" aria-labelledby="card-title">
<h1 id="card-title">${escapeHtml(t("member.center.card.label"))}</h1>
<p class="name">${escapeHtml(session.member.nameZh)}</p>
<p class="number">${escapeHtml(session.member.memberNumber)}</p>
<div class="qr" id="card-qr" role="img" aria-label="${escapeHtml(t("member.card.qrLabel", { seconds }))}" hidden></div>
<p class="countdown" id="card-countdown" aria-live="off"></p>
</section>
<p class="status" id="card-status" role="status"></p>
<p class="muted">${escapeHtml(t("member.card.rotates", { seconds }))}</p>
<p class="balance">${escapeHtml(t("member.card.balance"))} <strong>${formatNumber(summary.balance, locale)}</strong></p>
<p class="muted" id="card-balance-time">${escapeHtml(t("member.card.balanceAsOf", { time: formatTaipei(now, locale, "dateTime") }))}</p>
<p class="sr">${escapeHtml(t("member.card.codeText"))}: <span id="card-code-text"></span></p>
<p><a href="/member-center">${escapeHtml(t("member.card.back"))}</a></p>
</main>
<script type="application/json" id="card-data">${scriptJson(data)}</script>
<script type="module" src="${CARD_PATHS.script}?v=${version}" nonce="${nonce}"></script>
</body>
</html>`;
  return new Response(html, {
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      // Personal: in no HTTP cache (as every logged-in page). The service worker keeps its own copy in the Cache
      // Storage, which logging out clears.
      "Cache-Control": "private, no-store",
    },
  });
}
