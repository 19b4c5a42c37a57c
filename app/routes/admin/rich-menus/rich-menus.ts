import type { RichMenuState } from "@platform/db/schema";
import type { MessageKey } from "~/lib/i18n";

/** The words of a state and its hint (shared by the section's two pages). */
export function stateKey(state: RichMenuState): MessageKey {
  return `console.richMenus.state.${state}`;
}

export function stateHintKey(state: RichMenuState): MessageKey {
  return state === "unlinked" || state === "member"
    ? `console.richMenus.stateHint.${state}`
    : "console.richMenus.stateHint.tier";
}
