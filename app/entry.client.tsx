import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { installChunkReloadGuard } from "./lib/deploy";
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

// Inside LINE (or back from LIFF's login), liff.init must see the URL before the router does; the
// LIFF chunk is loaded only then. A LIFF failure never keeps the page from working.
const liff = liffStartFor(document, navigator.userAgent, window.location.search);
if (liff) {
  import("./lib/liff.client")
    .then(({ startLiff }) => startLiff(liff))
    .catch((error: unknown) => console.warn("LIFF could not start", error))
    .finally(hydrate);
} else {
  hydrate();
}
