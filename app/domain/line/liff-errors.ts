import type { MessageKey } from "~/locales/zh-TW";

/**
 * What a member reads when LINE refuses a share, a home-screen shortcut or a send (ADR 035): LINE's errors
 * (specification §8, as the LIFF SDK raises them: a `code` such as FORBIDDEN or "403" and an English message)
 * turned into the member's words. One table, tested beside it.
 */
export type LiffAction = "share" | "shortcut" | "send";
export type LiffFailure = { key: MessageKey & `liff.error.${string}`; values?: Record<string, string> };

type LiffErrorLike = { code?: unknown; message?: unknown; name?: unknown };

function parts(error: unknown): { code: string; message: string; name: string } {
  const e = (typeof error === "object" && error !== null ? error : {}) as LiffErrorLike;
  return {
    code: typeof e.code === "string" || typeof e.code === "number" ? String(e.code) : "",
    message: typeof e.message === "string" ? e.message : typeof error === "string" ? error : "",
    name: typeof e.name === "string" ? e.name : "",
  };
}

/** The failure to show for an error LINE raised during `action`. */
export function describeLiffError(action: LiffAction, error: unknown): LiffFailure {
  const { code, message, name } = parts(error);
  // An old LINE app answers a send with 403: LINE's own advice (specification §8).
  if (code === "403" && action === "send") return { key: "liff.error.updateLine" };
  if (code === "429" || code === "RATE_LIMIT_EXCEEDED") return { key: "liff.error.rateLimited" };
  // The SDK polls the share result every 500 ms and gives up after 10 minutes.
  if (/Timeout: not finished within/i.test(message)) return { key: "liff.error.shareTimeout" };
  if (code === "CREATE_SUBWINDOW_FAILED") return { key: "liff.error.popupBlocked" };
  // The consent screen closed or cancelled (permission.requestAll).
  if (/didn't allow the agreement/i.test(message)) return { key: "liff.error.declined" };
  if (/unavailable in this client version/i.test(message)) return { key: "liff.error.versionTooOld" };
  if (/No permission to specify (line schema|description)/i.test(message))
    return { key: "liff.error.shortcutNotAllowed" };
  if (/Could not get (Context|endpointUrl|permanentLinkPattern) from server/i.test(message))
    return { key: "liff.error.context" };
  if (
    /not in LIFF app scope|is not allowed in (this LIFF app|external browser)|(only be|be only) called in (mobile device|parent window)|SkipChannelVerificationScreen is unavailable/i.test(
      message,
    )
  )
    return { key: "liff.error.notAllowed" };
  if (code === "UNAUTHORIZED" || /access_token|login first/i.test(message)) return { key: "liff.error.login" };
  if (action === "shortcut" && (code === "INVALID_ARGUMENT" || /invalid URL|not under entrypoint/i.test(message)))
    return { key: "liff.error.invalidUrl" };
  // Any other share result: LINE's description of it, in brackets after our words.
  if (action === "share" && code === "EXCEPTION_IN_SUBWINDOW" && message.trim())
    return { key: "liff.error.shareFailed", values: { description: message.trim().slice(0, 200) } };
  if (name === "TypeError" && /fetch|network|load failed/i.test(message)) return { key: "liff.error.network" };
  return { key: "liff.error.generic" };
}

/** Whether requestAll refused only because every permission is already granted (then go ahead). */
export function isAlreadyGranted(error: unknown): boolean {
  return /All permissions have already been approved/i.test(parts(error).message);
}
