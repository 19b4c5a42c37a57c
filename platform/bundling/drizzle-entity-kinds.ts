import type { SourcePatch } from "./server-patches.ts";

/**
 * Drizzle's `is(value, type)`, with the classes' entity kinds remembered, in the server build (ADR 030,
 * "Later (2026-11-27, pipelining)").
 *
 * Drizzle asks `is()` about every piece of every query it builds: each piece is tested against StringChunk,
 * Name, SQL, Table, Column, View, Param, … in turn, and each test that fails `instanceof` walks the piece's
 * class chain comparing entity kinds (Drizzle does not trust `instanceof` across copies of itself). A CPU
 * profile of POS purchases had 7 % of the app's busy time in `is()` alone. The kinds along a class's chain
 * never change, so the patched `is()` collects them once per class and answers from that set: the same
 * answer (the unit test compares both on every entity class Drizzle exports), about twice as fast.
 *
 * drizzle-orm is pinned in package.json; if `is()` is not found as expected (an upgrade changed it), the
 * build fails rather than silently leaving it out.
 */
const TARGET = /[\\/]drizzle-orm[\\/]entity\.js$/;

export const ENTITY_KIND_WALK = `  let cls = Object.getPrototypeOf(value).constructor;
  if (cls) {
    while (cls) {
      if (entityKind in cls && cls[entityKind] === type[entityKind]) {
        return true;
      }
      cls = Object.getPrototypeOf(cls);
    }
  }
  return false;
}`;

export const ENTITY_KINDS_SOURCE = `
const hanEntityKinds = new WeakMap();
const hanNoKinds = new Set();
/** The entity kinds along a class's chain (what is()'s walk compares), collected once per class. */
function hanEntityKindsOf(cls) {
  if (!cls) return hanNoKinds;
  let kinds = hanEntityKinds.get(cls);
  if (kinds === undefined) {
    kinds = new Set();
    for (let c = cls; c; c = Object.getPrototypeOf(c)) {
      if (entityKind in c) kinds.add(c[entityKind]);
    }
    hanEntityKinds.set(cls, kinds);
  }
  return kinds;
}
`;

const IS_SIGNATURE = "function is(value, type) {";

/** The patch (platform/bundling/server-patches.ts): is()'s walk becomes a lookup in the remembered kinds. */
export const entityKindsPatch: SourcePatch = {
  name: "is() (drizzle-orm/entity.js)",
  file: TARGET,
  find: ENTITY_KIND_WALK,
  // The kinds' table goes before is(), so it exists before any module that uses is() runs.
  apply: (code) => {
    if (code.split(IS_SIGNATURE).length !== 2) throw new Error(`drizzle-orm/entity.js: "${IS_SIGNATURE}" changed`);
    return code
      .replace(IS_SIGNATURE, `${ENTITY_KINDS_SOURCE}${IS_SIGNATURE}`)
      .replace(
        ENTITY_KIND_WALK,
        "  return hanEntityKindsOf(Object.getPrototypeOf(value).constructor).has(type[entityKind]);\n}",
      );
  },
};
