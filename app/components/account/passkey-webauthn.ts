import { startAuthentication, startRegistration, WebAuthnError } from "@simplewebauthn/browser";

/**
 * The browser side of passkeys, loaded only when a member presses a passkey button (dynamic
 * import): @simplewebauthn/browser plus two calls to better-auth's passkey endpoints. Plain fetch
 * instead of better-auth's client keeps nanostores and the client runtime out of the bundle.
 */
const BASE = "/api/auth/passkey";

export type PasskeyOutcome = { ok: true } | { ok: false; reason: "cancelled" | "failed" };

async function postJson(path: string, body: unknown): Promise<Response> {
  return fetch(`${BASE}${path}`, {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

function failure(error: unknown): PasskeyOutcome {
  const cancelled =
    (error instanceof WebAuthnError && error.code === "ERROR_CEREMONY_ABORTED") ||
    (error instanceof DOMException && (error.name === "NotAllowedError" || error.name === "AbortError"));
  return { ok: false, reason: cancelled ? "cancelled" : "failed" };
}

/** Creates a passkey for the logged-in member (the session must be fresh; the server checks). */
export async function registerPasskey(name: string): Promise<PasskeyOutcome> {
  try {
    const optionsResponse = await fetch(`${BASE}/generate-register-options`, { credentials: "same-origin" });
    if (!optionsResponse.ok) return { ok: false, reason: "failed" };
    const response = await startRegistration({ optionsJSON: await optionsResponse.json() });
    const verified = await postJson("/verify-registration", { response, name });
    return verified.ok ? { ok: true } : { ok: false, reason: "failed" };
  } catch (error) {
    return failure(error);
  }
}

/** Logs in with a discoverable passkey; on success the session cookie is set by the response. */
export async function authenticateWithPasskey(): Promise<PasskeyOutcome> {
  try {
    const optionsResponse = await fetch(`${BASE}/generate-authenticate-options`, { credentials: "same-origin" });
    if (!optionsResponse.ok) return { ok: false, reason: "failed" };
    const response = await startAuthentication({ optionsJSON: await optionsResponse.json() });
    const verified = await postJson("/verify-authentication", { response });
    return verified.ok ? { ok: true } : { ok: false, reason: "failed" };
  } catch (error) {
    return failure(error);
  }
}
