import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { claimChunkReload, installChunkReloadGuard } from "./lib/deploy";
import { CATALOG_LINK_ATTRIBUTE, loadCatalog } from "./lib/i18n";
import { liffStartFor } from "./lib/liff-detect";

installChunkReloadGuard();

function hydrate() {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    );
  });
}

// The page's texts come from its message catalogs (i18n.ts), which the <head> already started loading. If one
// cannot load (a deploy replaced it a moment ago, the network dropped), the page reloads once; inside the
// reload guard window it stays as the server rendered it: links and forms still work, as without JavaScript.
const catalogLinks = document.querySelectorAll(`link[${CATALOG_LINK_ATTRIBUTE}]`);
const catalog = Promise.all(Array.from(catalogLinks, (link) => loadCatalog(link.getAttribute("href") ?? ""))).then(
  () => true,
  (error: unknown) => {
    console.warn("the page's catalogs could not load", error);
    if (claimChunkReload()) window.location.reload();
    return false;
  },
);

// Inside LINE (or back from LIFF's login), liff.init must see the URL before the router does; the
// LIFF chunk is loaded only then. A LIFF failure never keeps the page from working.
const liff = liffStartFor(document, navigator.userAgent, window.location.search);
const liffStarted = liff
  ? import("./adapters/liff.client")
      .then(({ startLiff }) => startLiff(liff))
      .catch((error: unknown) => console.warn("LIFF could not start", error))
  : undefined;

void Promise.all([catalog, liffStarted]).then(([ready]) => {
  if (ready) hydrate();
});
