import type { RichMenuState } from "@platform/db/schema";
import { AREA_ROWS_MAX, RICH_MENU_RULES } from "~/domain/line/rich-menu-input";
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

/** How many area rows the form sent (its `a{i}kind` fields), within LINE's limit. */
export function rowsSent(values: Record<string, string>): number {
  return Math.min(Object.keys(values).filter((k) => /^a\d{1,6}kind$/.test(k)).length, AREA_ROWS_MAX);
}

/** The longest a field of the form may be (LINE's rules): the message beside it names this. */
export function maxLength(field: string, values: Record<string, string>): number {
  if (field === "title") return RICH_MENU_RULES.titleMax;
  if (field === "chatBarText") return RICH_MENU_RULES.chatBarMax;
  const row = /^a(\d+)value$/.exec(field)?.[1];
  return values[`a${row}kind`] === "uri" ? RICH_MENU_RULES.uriMax : RICH_MENU_RULES.messageMax;
}
