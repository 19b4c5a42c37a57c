import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { cardBundle } from "./platform/bundling/card-bundle.ts";
import { entityKindsPatch } from "./platform/bundling/drizzle-entity-kinds.ts";
import { drizzleLazyRelationalPatch } from "./platform/bundling/drizzle-lazy-relational.ts";
import { lazyExternals } from "./platform/bundling/lazy-externals.ts";
import { routeMatchingPatch } from "./platform/bundling/memo-route-matching.ts";
import { renderPatches } from "./platform/bundling/memo-server-render.ts";
import { postgresWriteBatchesPatch } from "./platform/bundling/postgres-write-batches.ts";
import { precompressAssets } from "./platform/bundling/precompress-assets.ts";
import { stringChunksPatch } from "./platform/bundling/react-dom-string-chunks.ts";
import { serverPatches } from "./platform/bundling/server-patches.ts";

/**
 * What every page loads, as one chunk: react-dom (its client and the scheduler too, so React and the router are
 * one file rather than the entry's 66 kB and the shell's 51 kB: 0.6 kB less gzip on every page), the root's and
 * the default layout's small modules.
 */
const SHELL_MODULES =
  /(?:[\\/]node_modules[\\/](?:react-dom[\\/](?:index\.js|client\.js|cjs[\\/]react-dom(?:-client)?\.production\.js)|scheduler[\\/](?:index\.js|cjs[\\/]scheduler\.production\.js))|[\\/]platform[\\/]constants\.ts|[\\/]app[\\/](?:lib[\\/](?:cn|links|nonce|i18n|deploy|liff-detect|meta|announcer)\.tsx?|components[\\/](?:error-boundary|layout[\\/](?:site-header|site-footer|loading-overlay)|ui[\\/](?:toaster|button-variants|icons|input-class))\.tsx?))$/;

/**
 * The form pieces every sign-in, sign-up and account page loads (field, button, the form state
 * hook, the page frame), as one chunk: as separate files they cost ~1 kB more gzip per page (issue 17).
 */
const FORM_MODULES =
  /[\\/]app[\\/](?:lib[\\/]use-form-state\.ts|components[\\/](?:ui[\\/](?:button|field)|layout[\\/]page)\.tsx?)$/;

/**
 * What the production server build leaves to Node's resolver: native addons, WebAssembly and
 * packages that read their own files at run time. Everything else is bundled (cold start, ADR 030).
 */
const SERVER_EXTERNAL = ["sharp", "@node-rs/argon2", "@electric-sql/pglite"];

export default defineConfig(({ command }) => ({
  environments: {
    // The SSR build bundles our Express app (server/app.ts) with the React Router server
    // build, so production runs one module: build/server/index.js.
    ssr: { build: { rollupOptions: { input: "./server/app.ts" } } },
  },
  // In development Vite resolves react-router with the "development" condition; the Express
  // adapter must share that instance (RouterContextProvider is checked with instanceof).
  // In the production build every dependency but SERVER_EXTERNAL is bundled: loading thousands of
  // files through Node's resolver (package.json reads, stats, one compile each) was most of the cold
  // start (1.3 s → 0.7 s on a migrated database, ADR 030).
  ssr:
    command === "serve" ? { noExternal: ["@react-router/express"] } : { noExternal: true, external: SERVER_EXTERNAL },
  build: {
    assetsInlineLimit: 0,
    // SOURCEMAP=1 npm run build: source maps to see what each chunk holds (bench/README "Client JS").
    sourcemap: process.env.SOURCEMAP === "1",
    rolldownOptions: {
      output: {
        // The small modules the root and the default layout load on every page, as one chunk: a
        // dozen tiny files cost more (requests, per-file gzip overhead) than their bytes.
        codeSplitting: {
          groups: [
            { name: "shell", test: SHELL_MODULES },
            { name: "forms", test: FORM_MODULES },
          ],
        },
      },
    },
  },
  resolve: { tsconfigPaths: true },
  plugins: [
    tailwindcss(),
    reactRouter(),
    serverPatches([
      routeMatchingPatch,
      ...renderPatches,
      entityKindsPatch,
      drizzleLazyRelationalPatch,
      stringChunksPatch,
      postgresWriteBatchesPatch,
    ]),
    lazyExternals(),
    precompressAssets(),
    cardBundle(),
  ],
}));
