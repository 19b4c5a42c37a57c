import { describe, expect, it } from "vitest";
import { type ChunkInfo, eagerLazyExternals } from "./lazy-externals";

const chunk = (fileName: string, imports: string[], isEntry = false): ChunkInfo => ({
  type: "chunk",
  fileName,
  isEntry,
  imports,
});

describe("eagerLazyExternals", () => {
  it("names a lazy package imported statically by a chunk the entry imports, with the way to it", () => {
    const found = eagerLazyExternals([
      chunk("index.js", ["assets/app.js", "express"], true),
      chunk("assets/app.js", ["sharp", "node:fs"]),
    ]);
    expect(found).toEqual(["sharp (index.js → assets/app.js)"]);
  });

  it("names subpaths of a lazy package too", () => {
    expect(eagerLazyExternals([chunk("index.js", ["@electric-sql/pglite/vector"], true)])).toEqual([
      "@electric-sql/pglite/vector (index.js)",
    ]);
  });

  it("accepts a lazy package that only a chunk loaded by import() imports", () => {
    // assets/images.js is in no static imports: the entry reaches it through import() only.
    const found = eagerLazyExternals([
      chunk("index.js", ["assets/app.js"], true),
      chunk("assets/app.js", ["zod"]),
      chunk("assets/images.js", ["sharp", "@node-rs/argon2"]),
    ]);
    expect(found).toEqual([]);
  });

  it("does not take a package for one of ours because its name starts the same", () => {
    expect(eagerLazyExternals([chunk("index.js", ["sharp-utils", "@node-rs/argon2-extra"], true)])).toEqual([]);
  });

  it("walks import cycles once", () => {
    const found = eagerLazyExternals([
      chunk("index.js", ["assets/a.js"], true),
      chunk("assets/a.js", ["assets/b.js"]),
      chunk("assets/b.js", ["assets/a.js", "@node-rs/argon2"]),
    ]);
    expect(found).toEqual(["@node-rs/argon2 (index.js → assets/a.js → assets/b.js)"]);
  });
});
