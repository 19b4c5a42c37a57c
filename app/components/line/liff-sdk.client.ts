import liff from "@line/liff/core";
import CreateShortcutOnHomeScreenModule from "@line/liff/create-shortcut-on-home-screen";
import GetContextModule from "@line/liff/get-context";
import IsApiAvailableModule from "@line/liff/is-api-available";
import PermissionModule from "@line/liff/permission";
import SendMessagesModule from "@line/liff/send-messages";
import ShareTargetPickerModule from "@line/liff/share-target-picker";
import { describeLiffError, isAlreadyGranted, type LiffAction, type LiffFailure } from "~/domain/line/liff-errors";
import { checkMessages, type FlexMessage, liffPageUrl } from "~/domain/line/liff-messages";

/**
 * LINE's platform features inside LINE (ADR 035), on top of the LIFF core that liff.client.ts started: share a
 * page through the share target picker, add the member card to the home screen, send a coupon to the chat the
 * page was opened from. This chunk loads on demand, only inside LINE and only on a page that offers one of
 * them, so the LIFF chunk every LINE page loads stays within its budget.
 */

export type LiffFeatureOptions = {
  liffId: string;
  /** @line/liff-mock stands in for LINE (browser tests with the local provider): it already answers every call. */
  mocked: boolean;
};

/** How one attempt ended: done, cancelled by the member (nothing to say), or failed with words for the member. */
export type LiffOutcome = { status: "done" } | { status: "cancelled" } | { status: "failed"; failure: LiffFailure };

/** Chats the page may send into (context types utou, group, room); not a square chat, not outside a chat. */
const CHAT_TYPES = new Set(["utou", "group", "room"]);

type SendPermission = "granted" | "prompt" | "unavailable";

let options: LiffFeatureOptions | null = null;

/** Installs LINE's modules for these features (after init, which is allowed: none of them hooks into init). */
export function installLiffFeatures(next: LiffFeatureOptions): void {
  if (options) return;
  options = next;
  // Under the mock, `liff.use` would replace its answers with the real modules (which need LINE's servers).
  if (next.mocked) return;
  liff.use(new GetContextModule());
  liff.use(new IsApiAvailableModule());
  liff.use(new PermissionModule());
  liff.use(new ShareTargetPickerModule());
  liff.use(new SendMessagesModule());
  liff.use(new CreateShortcutOnHomeScreenModule());
}

/** An address inside this site as LINE should open it: the LIFF URL with a real LIFF app, else the page itself. */
export function linkTo(path: string): string {
  return liffPageUrl(path, { liffId: options && !options.mocked ? options.liffId : null, origin: location.origin });
}

/**
 * Only in LINE's LIFF browser (a LIFF URL opened in LINE: the rich menu, a shared message). In LINE's plain
 * in-app browser, or any browser back from LIFF's login, LIFF works as in an external browser, where the
 * share picker is a pop-up window that our Cross-Origin-Opener-Policy (same-origin) cuts off.
 */
function inLiffBrowser(): boolean {
  try {
    return liff.isInClient() === true;
  } catch {
    return false;
  }
}

function available(api: "shareTargetPicker" | "createShortcutOnHomeScreen"): boolean {
  try {
    // False where this LINE version, this LIFF app or a missing login cannot do it.
    return inLiffBrowser() && liff.isApiAvailable(api) === true;
  } catch {
    return false;
  }
}

export const canShare = () => available("shareTargetPicker");
export const canAddShortcut = () => available("createShortcutOnHomeScreen");

/** Whether the page was opened from a chat it may send into. */
export function inChat(): boolean {
  try {
    return inLiffBrowser() && CHAT_TYPES.has(liff.getContext()?.type ?? "");
  } catch {
    return false;
  }
}

/** The state of `chat_message.write` for this member and LIFF app (unavailable also when it cannot be asked). */
export async function sendPermission(): Promise<SendPermission> {
  try {
    const { state } = await liff.permission.query("chat_message.write");
    return state === "granted" || state === "prompt" ? state : "unavailable";
  } catch {
    return "unavailable";
  }
}

function failed(action: LiffAction, error: unknown): LiffOutcome {
  return { status: "failed", failure: describeLiffError(action, error) };
}

/**
 * Share through LINE's share target picker. A result means it was sent; none means the member cancelled (or,
 * before LINE 10.11.0, that LINE does not say). The SDK polls LINE every 500 ms for the outcome and gives up
 * after 10 minutes with a timeout error (specification §9): that timeout is the SDK's, not ours.
 */
export async function share(messages: FlexMessage[]): Promise<LiffOutcome> {
  try {
    const result = await liff.shareTargetPicker(checkMessages(messages), { isMultiple: true });
    return result ? { status: "done" } : { status: "cancelled" };
  } catch (error) {
    return failed("share", error);
  }
}

/**
 * The home-screen shortcut. The address must lie within the LIFF app's endpoint (its LIFF URL always does);
 * a line: address or a description would need the addToHomeLineScheme permission, so neither is used. LINE
 * then shows its own (or the phone's) confirmation: "done" means the request went to LINE.
 */
export async function addShortcut(path: string): Promise<LiffOutcome> {
  try {
    await liff.createShortcutOnHomeScreen({ url: linkTo(path) });
    return { status: "done" };
  } catch (error) {
    return failed("shortcut", error);
  }
}

/**
 * Send messages into the chat the page was opened from: first the permission (granted → go; prompt → LINE's
 * consent screen; unavailable → refused), then the send. An old LINE app answers 403 (specification §8).
 */
export async function sendToChat(messages: FlexMessage[]): Promise<LiffOutcome> {
  if (!inChat()) return { status: "failed", failure: { key: "liff.error.context" } };
  const permission = await sendPermission();
  if (permission === "unavailable") return { status: "failed", failure: { key: "liff.error.notAllowed" } };
  if (permission === "prompt") {
    try {
      await liff.permission.requestAll();
    } catch (error) {
      if (!isAlreadyGranted(error)) return failed("send", error);
    }
  }
  try {
    await liff.sendMessages(checkMessages(messages));
    return { status: "done" };
  } catch (error) {
    return failed("send", error);
  }
}
