/** The console shell (top bar on phones and tablets, sidebar on a desktop). */
export const shellZhTW = {
  "console.shell.group.daily": "日常",
  "console.shell.group.catalog": "目錄與方案",
  "console.shell.group.admin": "管理",
} as const;
