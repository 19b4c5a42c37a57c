import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig({
  environments: {
    // The SSR build bundles our Express app (server/app.ts) with the React Router server
    // build, so production runs one module: build/server/index.js.
    ssr: { build: { rollupOptions: { input: "./server/app.ts" } } },
  },
  build: { assetsInlineLimit: 0 },
  resolve: { tsconfigPaths: true },
  plugins: [tailwindcss(), reactRouter()],
});
