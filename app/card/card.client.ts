/**
 * The offline member card's script (ADR 043): no React, no router, a few kB with the QR encoder. It registers this
 * device once while online (a secret of its own), then draws the rotating code every 30-second step from that
 * secret, with or without a network. Bundled by scripts/build-card.js.
 */
import { CARD_STEP_SECONDS, cardCodeText, cardStep, fromBase64url } from "~/lib/card-code";
import { renderQrSvg } from "~/lib/qr-svg";

type PageData = {
  memberId: string;
  devices: string[];
  registerUrl: string;
  swUrl: string;
  swScope: string;
  text: { refreshIn: string; register: string; needsNetwork: string; removed: string; offline: string };
};

type Stored = { memberId: string; deviceId: string; secret: string; offsetMs: number };

const STORE_KEY = "hl-member-card";
const $ = (id: string) => document.getElementById(id) as HTMLElement;
const data = JSON.parse($("card-data").textContent ?? "{}") as PageData;

function readStored(): Stored | null {
  try {
    const stored = JSON.parse(localStorage.getItem(STORE_KEY) ?? "null") as Stored | null;
    return stored && stored.memberId === data.memberId ? stored : null;
  } catch {
    return null;
  }
}

let device = readStored();
let secret = device ? fromBase64url(device.secret) : null;
let shownStep = -1;

function status(text: string) {
  $("card-status").textContent = text;
}

async function draw() {
  if (!device || !secret) return;
  const now = Date.now() + device.offsetMs;
  const step = cardStep(now);
  const left = CARD_STEP_SECONDS - Math.floor((now / 1000) % CARD_STEP_SECONDS);
  $("card-countdown").textContent = data.text.refreshIn.replace("{seconds}", String(left));
  if (step === shownStep) return;
  shownStep = step;
  const text = await cardCodeText(secret, device.memberId, device.deviceId, now);
  const qr = $("card-qr");
  qr.innerHTML = renderQrSvg(text, 2, "M");
  qr.dataset.code = text;
  $("card-code-text").textContent = text;
  qr.hidden = false;
  // `npm run bench:card` reads this: the time from navigation to the first code on screen.
  if (performance.getEntriesByName("card-qr").length === 0) performance.mark("card-qr");
}

async function register(): Promise<void> {
  status(data.text.register);
  const response = await fetch(data.registerUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{}",
    credentials: "same-origin",
  });
  if (!response.ok) throw new Error(`register: ${response.status}`);
  const answer = (await response.json()) as { deviceId: string; memberId: string; secret: string; serverNow: number };
  device = {
    memberId: answer.memberId,
    deviceId: answer.deviceId,
    secret: answer.secret,
    offsetMs: answer.serverNow - Date.now(),
  };
  localStorage.setItem(STORE_KEY, JSON.stringify(device));
  secret = fromBase64url(device.secret);
  shownStep = -1;
  status("");
}

async function start() {
  // The page's device list is from when the page was rendered: a device removed (in security) since then is not in
  // it, and a page rendered while online registers this browser again.
  const online = navigator.onLine;
  if (device && online && !data.devices.includes(device.deviceId)) {
    localStorage.removeItem(STORE_KEY);
    device = null;
    secret = null;
    $("card-qr").hidden = true;
    status(data.text.removed);
  }
  if (!device) {
    if (!online) {
      status(data.text.needsNetwork);
      return;
    }
    try {
      await register();
    } catch {
      status(data.text.needsNetwork);
      return;
    }
  }
  if (!online) status(data.text.offline);
  await draw();
  setInterval(draw, 1000);
}

void start();

if ("serviceWorker" in navigator) {
  void navigator.serviceWorker.register(data.swUrl, { scope: data.swScope }).catch(() => {});
}
