import type { shellZhTW } from "./shell.zh-TW";

export const shellEn = {
  "console.shell.group.daily": "Daily",
  "console.shell.group.catalog": "Catalogue and programme",
  "console.shell.group.admin": "Administration",
} as const satisfies Record<keyof typeof shellZhTW, string>;
