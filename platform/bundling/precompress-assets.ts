import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { Plugin } from "vite";

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** The files compressed ahead: the client build's scripts and stylesheets. */
const COMPRESSIBLE = /^assets\/[^/]+\.(?:js|css)$/;

/**
 * Each compressible file's copies, as the server serves them (server/precompressed-assets.ts): `name.br`
 * (brotli quality 11) and `name.gz` (gzip level 9). A copy that would not be smaller is not written.
 */
export async function compressedCopies(content: Buffer): Promise<{ suffix: ".br" | ".gz"; bytes: Buffer }[]> {
  const [br, gz] = await Promise.all([
    brotli(content, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
      },
    }),
    gzipped(content, { level: 9 }),
  ]);
  return [
    { suffix: ".br" as const, bytes: br },
    { suffix: ".gz" as const, bytes: gz },
  ].filter((copy) => copy.bytes.length < content.length);
}

/**
 * Compresses the client build's hashed scripts and stylesheets once, at build time (issue 17; ADR 031): a
 * browser downloads brotli 11 (the shell chunk: 98.8 kB, against 115 kB at the quality a server can afford per
 * request) and no request spends CPU on compressing a file that never changes.
 */
export function precompressAssets(): Plugin {
  return {
    name: "han:precompress-assets",
    apply: "build",
    applyToEnvironment: (environment) => environment.name === "client",
    async writeBundle(options, bundle) {
      const dir = options.dir;
      if (!dir) return;
      const names = Object.keys(bundle).filter((name) => COMPRESSIBLE.test(name));
      await Promise.all(
        names.map(async (name) => {
          const file = path.join(dir, name);
          const copies = await compressedCopies(await readFile(file));
          await Promise.all(copies.map((copy) => writeFile(file + copy.suffix, copy.bytes)));
        }),
      );
    },
  };
}
