import liff from "@line/liff/core";
import GetIDTokenModule from "@line/liff/get-id-token";
import IsInClientModule from "@line/liff/is-in-client";
import IsLoggedInModule from "@line/liff/is-logged-in";
import LoginModule from "@line/liff/login";
import type { LiffFeatures } from "~/components/line/liff-features.client";
import type { LiffBridge } from "~/components/line/line-button";
import type { LiffStart } from "~/lib/liff-detect";
import { links } from "~/lib/links";

/**
 * LIFF inside the LINE app: the pluggable core with only the modules used here (is-in-client,
 * is-logged-in, login, get-id-token). Loaded by entry.client only inside LINE or on LIFF's return.
 * LINE's features (share, home-screen shortcut, send to a chat) are a chunk of their own, loaded on
 * demand by the pages that offer them (ADR 035), so this one stays within its 25 kB budget.
 * The page never reads a profile or user id: it posts the raw ID token, and the server verifies it.
 */
const PENDING_METHOD = "lineMethod";
type Method = Parameters<LiffBridge["login"]>[0];

declare global {
  interface Window {
    /** Browser tests only (with the local provider): the mock LIFF data, e.g. { getIDToken: "…" }. */
    __LIFF_MOCK__?: Record<string, unknown>;
  }
}

/** LIFF must never hold the page hostage: after this long the page hydrates without it. */
const INIT_TIMEOUT_MS = 8_000;

export async function startLiff({ liffId, mock }: LiffStart): Promise<void> {
  const mockData = mock ? window.__LIFF_MOCK__ : undefined;
  // The local provider has no LINE app behind it: LIFF runs there only with mock data (tests).
  if (mock && !mockData) return;
  // IsInClient first: @line/liff-mock depends on it.
  liff.use(new IsInClientModule());
  liff.use(new IsLoggedInModule());
  liff.use(new LoginModule());
  liff.use(new GetIDTokenModule());
  if (mockData) {
    const { LiffMockPlugin } = await import("@line/liff-mock");
    // Typed against the full SDK; with the pluggable core it needs only isInClient (installed above).
    liff.use(new LiffMockPlugin() as unknown as Parameters<typeof liff.use>[0]);
  }
  await Promise.race([
    liff.init({ liffId, ...(mockData ? { mock: true } : {}) } as Parameters<typeof liff.init>[0]),
    new Promise((_, reject) => setTimeout(() => reject(new Error("liff.init timed out")), INIT_TIMEOUT_MS)),
  ]);
  if (mockData)
    (liff as unknown as { $mock: { set(data: unknown): void } }).$mock.set((prev: object) => ({
      ...prev,
      ...mockData,
    }));

  const login = (method: Method) => {
    sessionStorage.setItem(PENDING_METHOD, method);
    if (!liff.isLoggedIn()) {
      // LINE's login first; it returns here with code, state and liffClientId, and init finishes it.
      liff.login({ redirectUri: window.location.href });
      return;
    }
    postIdToken(method, liff.getIDToken());
  };
  // LINE's features (share, shortcut, send): their chunk loads on the first page that offers one (a failed
  // download reloads the page once, as any chunk does: deploy.ts).
  let features: Promise<LiffFeatures> | undefined;
  window.__hanLiff = {
    login,
    features: () =>
      (features ??= import("~/components/line/liff-features.client").then((m) =>
        m.loadLiffFeatures({ liffId, mocked: Boolean(mockData) }),
      )),
  };
  // Under the mock only: the LIFF object, so a browser test can see what the page asked LINE to do.
  if (mockData) (window as { liff?: unknown }).liff = liff;

  // The return flow: a lineMethod stored before LINE's login is picked up once logged in.
  const pending = sessionStorage.getItem(PENDING_METHOD);
  if (pending === "signin" || pending === "signup" || pending === "link") {
    if (liff.isLoggedIn()) postIdToken(pending, liff.getIDToken());
  }
}

/** A real form POST (a full navigation): the server answers with the session cookie and a redirect. */
function postIdToken(method: Method, idToken: string | null) {
  sessionStorage.removeItem(PENDING_METHOD);
  const form = document.createElement("form");
  form.method = "post";
  form.action = links.lineLiff();
  form.hidden = true;
  for (const [name, value] of Object.entries({ method, idToken: idToken ?? "" })) {
    const input = document.createElement("input");
    input.type = "hidden";
    input.name = name;
    input.value = value;
    form.append(input);
  }
  document.body.append(form);
  form.submit();
}
