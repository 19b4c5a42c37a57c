import base from "/work/wt/ci/playwright.config";
const extra = (process.env.V_ARGS ?? "").split(" ").filter(Boolean);
const ignore = (process.env.V_IGNORE ?? "").split(" ").filter(Boolean);
export default {
  ...base,
  testDir: "/work/wt/ci/e2e",
  reporter: [["list"]],
  use: {
    ...base.use,
    launchOptions: {
      ...base.use!.launchOptions,
      args: [...(base.use!.launchOptions!.args ?? []), ...extra],
      ...(ignore.length ? { ignoreDefaultArgs: ignore } : {}),
    },
  },
};
