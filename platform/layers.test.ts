import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The layers import one way only (docs/decisions/017-layers.md):
 *   server/   (HTTP: Express, the POS API, the local fakes)  → may import app/ and platform/
 *   app/      (routes, components, domain rules)             → may import platform/
 *   platform/ (database, schema, config, job queue, logger)  → imports neither
 */
const root = path.resolve(import.meta.dirname, "..");
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\bvi\.mock\(\s*)["']([^"']+)["']/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx|js|mjs)$/.test(entry.name))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}

/** The top folder an import specifier lands in, seen from `file`. */
function importTarget(file: string, specifier: string): string | null {
  if (specifier.startsWith("~/")) return "app";
  if (specifier.startsWith("@platform/")) return "platform";
  if (!specifier.startsWith(".")) return null;
  return path.normalize(path.join(path.dirname(file), specifier)).split(path.sep)[0] ?? null;
}

function upwardImports(layer: string, forbidden: string[]): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(layer)) {
    for (const match of readFileSync(path.join(root, file), "utf8").matchAll(SPECIFIER)) {
      const target = importTarget(file, match[1] ?? "");
      if (target && forbidden.includes(target)) found.push(`${file} → ${match[1]}`);
    }
  }
  return found;
}

describe("layers", () => {
  it("finds the target folder of relative and aliased imports", () => {
    expect(importTarget("app/domain/a/b.ts", "../../../server/x")).toBe("server");
    expect(importTarget("app/domain/a/b.ts", "~/lib/x")).toBe("app");
    expect(importTarget("server/app.ts", "@platform/db/client")).toBe("platform");
    expect(importTarget("app/x.ts", "react")).toBeNull();
  });

  it("nothing under app/ imports from server/", () => {
    expect(upwardImports("app", ["server"])).toEqual([]);
  });

  it("nothing under platform/ imports from app/ or server/", () => {
    expect(upwardImports("platform", ["app", "server"])).toEqual([]);
  });
});
