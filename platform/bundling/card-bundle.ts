import { createHash } from "node:crypto";
import path from "node:path";
import { build } from "esbuild";
import type { Plugin } from "vite";

const ID = "virtual:card-bundle";
const RESOLVED = `\0${ID}`;

/**
 * The offline member card's script (app/card/card.client.ts, ADR 043) as a string module: `import script, { version }
 * from "virtual:card-bundle"`. Its own small bundle (no React, no router: the QR encoder, the code and a few lines),
 * built by esbuild when the server module is built (or loaded in development), so production serves it from memory
 * with no file of its own. `version` is its hash: the service worker's cache carries it.
 */
export function cardBundle(): Plugin {
  return {
    name: "han-living:card-bundle",
    resolveId(id) {
      return id === ID ? RESOLVED : null;
    },
    async load(id) {
      if (id !== RESOLVED) return null;
      const root = process.cwd();
      const entry = path.join(root, "app/card/card.client.ts");
      const result = await build({
        entryPoints: [entry],
        bundle: true,
        minify: true,
        format: "esm",
        target: ["es2022", "safari16"],
        alias: { "~": path.join(root, "app") },
        write: false,
        metafile: true,
        legalComments: "none",
        logLevel: "silent",
      });
      for (const input of Object.keys(result.metafile.inputs)) this.addWatchFile(path.resolve(root, input));
      const text = result.outputFiles[0]?.text ?? "";
      const version = createHash("sha256").update(text).digest("hex").slice(0, 12);
      return `export default ${JSON.stringify(text)};\nexport const version = ${JSON.stringify(version)};\n`;
    },
  };
}
