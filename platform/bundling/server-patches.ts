import type { Plugin } from "vite";

/**
 * One change to one file of a pinned dependency, made in the server build only (the browser bundle keeps
 * every byte as published). Each patch names the exact text it replaces: if an upgrade changed it, the build
 * fails with the patch's name rather than silently leaving it out.
 */
export type SourcePatch = {
  /** What it does, and the file that holds it; used in the build's error messages. */
  name: string;
  /** The file it applies to. */
  file: RegExp;
  /** The text the file must contain, exactly once. */
  find: string;
  /** The file's new text, given its text (which contains `find`). */
  apply: (code: string) => string;
};

/**
 * A patch's `apply` that renames the function declared by `signature` from `name` to `renamed` and appends
 * `source`, which declares `name` anew (and calls `renamed`).
 */
export const renameAndAppend =
  (signature: string, name: string, renamed: string, source: string) =>
  (code: string): string =>
    code.replace(signature, signature.replace(`function ${name}(`, `function ${renamed}(`)) + source;

/** The patched text of `code` (file `id`), or null when no patch is for that file; throws through `fail`. */
export function applyPatches(
  patches: readonly SourcePatch[],
  code: string,
  id: string,
  fail: (message: string) => never,
): { code: string; applied: SourcePatch[] } | null {
  const mine = patches.filter((patch) => patch.file.test(id));
  if (mine.length === 0) return null;
  let out = code;
  for (const patch of mine) {
    const at = out.indexOf(patch.find);
    if (at < 0 || out.indexOf(patch.find, at + 1) >= 0) {
      fail(`${id}: the text "${patch.name}" replaces changed; update platform/bundling (react-router is pinned)`);
    }
    out = patch.apply(out);
  }
  return { code: out, applied: mine };
}

/** The Vite plugin that applies `patches` to the SSR build, and fails it when one found no file. */
export function serverPatches(patches: readonly SourcePatch[]): Plugin {
  const applied = new Set<SourcePatch>();
  return {
    name: "han:server-patches",
    apply: "build",
    applyToEnvironment: (environment) => environment.name === "ssr",
    transform(code, id) {
      const out = applyPatches(patches, code, id, (message) => this.error(message));
      if (!out) return null;
      for (const patch of out.applied) applied.add(patch);
      return { code: out.code, map: null };
    },
    buildEnd(error) {
      const missing = patches.filter((patch) => !applied.has(patch)).map((patch) => patch.name);
      if (!error && missing.length > 0) {
        this.error(`not in the server build, so not patched: ${missing.join(", ")}; update platform/bundling`);
      }
    },
  };
}
