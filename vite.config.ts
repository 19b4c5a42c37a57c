import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

const SHELL_MODULES =
  /(?:[\\/]node_modules[\\/]react-dom[\\/](?:index\.js|cjs[\\/]react-dom\.production\.js)|[\\/]platform[\\/]constants\.ts|[\\/]app[\\/](?:lib[\\/](?:cn|links|nonce|i18n|deploy|liff-detect|meta|announcer)\.tsx?|components[\\/](?:error-boundary|layout[\\/](?:site-header|site-footer|loading-overlay)|ui[\\/](?:toaster|button-variants|icons|input-class))\.tsx?))$/;

/**
 * The form pieces every sign-in, sign-up and account page loads (field, button, the form state
 * hook, the page frame), as one chunk: as separate files they cost ~1 kB more gzip per page (issue 17).
 */
const FORM_MODULES =
  /[\\/]app[\\/](?:lib[\\/]use-form-state\.ts|components[\\/](?:ui[\\/](?:button|field)|layout[\\/]page)\.tsx?)$/;

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
  plugins: [tailwindcss(), reactRouter()],
}));
