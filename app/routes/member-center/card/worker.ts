import { version } from "virtual:card-bundle";

/**
 * GET /member-center/card/sw.js: the offline card's service worker (ADR 043). Its scope is the card page alone
 * (`/member-center/card`): it keeps that page, its script and its icons, so the card opens without a network, and
 * touches no other request (the rest of the site stays online-only: nothing else is answered from a cache).
 *
 * The page is network-first: online, the member sees the page as the server renders it now (and the copy kept is
 * replaced); only when the network fails does the kept copy answer, and that copy says when its balance was read.
 * A redirect or an error (logged out, session ended) deletes the kept page. The cache's name carries the build's
 * version: a new build installs a new worker, which deletes the older caches. Logging out clears everything
 * (`Clear-Site-Data` on /logout).
 */
const source = (v: string) => `"use strict";
const CACHE = "member-card-${v}";
const PAGE = "/member-center/card";
const KEEP = ["/member-center/card/app.js?v=${v}", "/member-center/card/manifest.webmanifest", "/member-card/icon-192.png"];
self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) =>
        Promise.all([
          cache.addAll(KEEP),
          fetch(PAGE, { credentials: "same-origin", redirect: "manual" }).then((r) => (r.status === 200 ? cache.put(PAGE, r) : undefined)),
        ]),
      )
      .then(() => self.skipWaiting()),
  );
});
self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("member-card-") && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});
async function page(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.status === 200 && response.type === "basic" && !response.redirected) await cache.put(PAGE, response.clone());
    else await cache.delete(PAGE);
    return response;
  } catch (error) {
    const kept = await cache.match(PAGE);
    if (kept) return kept;
    throw error;
  }
}
self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname === PAGE && request.mode === "navigate") {
    event.respondWith(page(request));
    return;
  }
  if (KEEP.includes(url.pathname + url.search)) {
    event.respondWith(caches.match(url.pathname + url.search, { cacheName: CACHE }).then((kept) => kept || fetch(request)));
  }
});
`;

const body = source(version);

export function loader() {
  return new Response(body, {
    headers: {
      "Content-Type": "text/javascript; charset=utf-8",
      "Cache-Control": "no-cache",
      // The worker lives under /member-center/card/ but serves the page /member-center/card itself.
      "Service-Worker-Allowed": "/member-center/card",
    },
  });
}
