import type { Config } from "@react-router/dev/config";

// The bench baseline: the smallest SSR React Router app, built by bench/run.js with
// `react-router build bench/minimal`. The build goes under the repo's node_modules/.cache
// (or BENCH_MINIMAL_BUILD_DIR, which the bench sets): its server bundle imports react-router
// and friends, so it must sit where Node resolves the repo's node_modules, and there neither
// tsc nor biome looks at it.
export default {
  ssr: true,
  appDirectory: "app",
  buildDirectory: process.env.BENCH_MINIMAL_BUILD_DIR ?? "../../node_modules/.cache/bench-minimal-build",
} satisfies Config;
