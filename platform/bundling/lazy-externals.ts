import type { Plugin } from "vite";

/**
 * Packages the server loads only when it needs them, never at start (ADR 030, "Later (2026-11-27)"):
 * importing sharp loads libvips (~0.1 s), PGlite its WebAssembly (~40 ms, and only the embedded database
 * uses it), argon2 its native addon. Each is reached through `import()` in one place
 * (app/domain/images/sharp.server.ts, platform/db/client.ts, app/domain/auth/passwords.server.ts).
 */
export const LAZY_EXTERNALS = ["sharp", "@electric-sql/pglite", "@node-rs/argon2"];

/** The parts of an output chunk this check reads (Rollup's and Rolldown's `OutputChunk`). */
export type ChunkInfo = { type: "chunk"; fileName: string; isEntry: boolean; imports: string[] };

const isLazy = (id: string) => LAZY_EXTERNALS.some((name) => id === name || id.startsWith(`${name}/`));

/**
 * The lazy externals a start would load: every package in LAZY_EXTERNALS imported statically by an entry
 * chunk or by a chunk an entry imports statically, with the chain of chunks that leads to it.
 */
export function eagerLazyExternals(chunks: ChunkInfo[]): string[] {
  const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const found: string[] = [];
  const via = new Map<string, string[]>();
  const queue = chunks.filter((chunk) => chunk.isEntry);
  for (const entry of queue) via.set(entry.fileName, [entry.fileName]);
  while (queue.length > 0) {
    const chunk = queue.shift() as ChunkInfo;
    const path = via.get(chunk.fileName) ?? [chunk.fileName];
    for (const id of chunk.imports) {
      if (isLazy(id)) found.push(`${id} (${path.join(" → ")})`);
      const next = byName.get(id);
      if (next && !via.has(next.fileName)) {
        via.set(next.fileName, [...path, next.fileName]);
        queue.push(next);
      }
    }
  }
  return found;
}

/** Fails the server build when a lazy external is imported statically on the way from the entry. */
export function lazyExternals(): Plugin {
  return {
    name: "han:lazy-externals",
    apply: "build",
    applyToEnvironment: (environment) => environment.name === "ssr",
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((output) => output.type === "chunk") as unknown as ChunkInfo[];
      const eager = eagerLazyExternals(chunks);
      if (eager.length > 0) {
        this.error(
          `the server would load these at start; import them with import() where they are used:\n  ${eager.join("\n  ")}`,
        );
      }
    },
  };
}
