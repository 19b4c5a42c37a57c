import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

const SHELL_MODULES =
  /(?:[\\/]platform[\\/]constants\.ts|[\\/]app[\\/](?:lib[\\/](?:cn|links|nonce|i18n|deploy|time|liff-detect|meta)\.tsx?|components[\\/](?:error-boundary|layout[\\/](?:site-header|site-footer|loading-overlay)|ui[\\/](?:toaster|button-variants|icons))\.tsx))$/;

export default defineConfig(({ command }) => ({
  environments: {
    // The SSR build bundles our Express app (server/app.ts) with the React Router server
    // build, so production runs one module: build/server/index.js.
    ssr: { build: { rollupOptions: { input: "./server/app.ts" } } },
  },
  // In development Vite resolves react-router with the "development" condition; the Express
  // adapter must share that instance (RouterContextProvider is checked with instanceof).
  // In the production build drizzle-orm is bundled: loading its 400+ files through Node's resolver
  // was half of the cold start.
  ssr: { noExternal: command === "serve" ? ["@react-router/express"] : ["drizzle-orm"] },
  build: {
    assetsInlineLimit: 0,
    rolldownOptions: {
      output: {
        // The small modules the root and the default layout load on every page, as one chunk: a
        // dozen tiny files cost more (requests, per-file gzip overhead) than their bytes.
        codeSplitting: { groups: [{ name: "shell", test: SHELL_MODULES }] },
      },
    },
  },
  resolve: { tsconfigPaths: true },
  plugins: [tailwindcss(), reactRouter()],
}));
