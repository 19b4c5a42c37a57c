import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  appDirectory: "app",
  // Routes are discovered on navigation; a stale client gets a document reload
  // when the server's manifest version differs (see docs/decisions/004).
  routeDiscovery: { mode: "lazy" },
} satisfies Config;
