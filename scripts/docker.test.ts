import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The Docker files (issue 11, item 7). No Docker daemon runs where the tests run, so this reads the
 * files: what the build context leaves out, what the image ships for `npm run db:seed` and
 * `npm run api-key`, and the compose topology (only the TLS proxy published, TRUST_PROXY to match).
 */
const root = path.resolve(import.meta.dirname, "..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");
const packageJson = JSON.parse(read("package.json")) as {
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
};

describe(".dockerignore", () => {
  const patterns = read(".dockerignore")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"));

  it.each(["node_modules", "build", "data", ".env", "test-results", "playwright-report", "reports", "backups"])(
    "keeps %s out of the build context",
    (entry) => {
      expect(patterns).toContain(entry);
    },
  );

  it("keeps every .env variant out but .env.example", () => {
    expect(patterns).toContain(".env.*");
    expect(patterns).toContain("!.env.example");
  });
});

describe(".gitignore", () => {
  // Issue 33 item 18: a full member backup (npm run db:backup's default folder) must never show in `git status`.
  const patterns = read(".gitignore")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"));

  it.each(["data", "backups"])("keeps the project's %s/ folder out of git", (folder) => {
    expect(patterns.some((p) => [folder, `${folder}/`, `/${folder}`, `/${folder}/`].includes(p))).toBe(true);
    expect(patterns.filter((p) => p.startsWith("!"))).toEqual([]);
  });
});

describe("the image", () => {
  const dockerfile = read("Dockerfile");
  const finalStage = dockerfile.slice(dockerfile.lastIndexOf("\nFROM "));
  const copied = [...finalStage.matchAll(/^COPY --from=build (.+) \S+$/gm)].flatMap((m) =>
    (m[1] ?? "").split(/\s+/).map((p) => p.replace(/^\/app\//, "")),
  );

  it.each(["db:seed", "api-key"])("ships what `npm run %s` runs", (name) => {
    const script = packageJson.scripts[name] ?? "";
    const file = /\b(scripts\/[\w.-]+\.js)\b/.exec(script)?.[1];
    expect(file, script).toBeDefined();
    expect(copied).toContain("package.json");
    expect(copied).toContain("scripts");
    // What the script imports: our files beside it (copied with scripts/), the build, and packages
    // that must be production dependencies (the image prunes the rest).
    const source = read(file as string);
    for (const [, specifier] of source.matchAll(/(?:from |import\()\s*"([^"]+)"/g)) {
      if (!specifier || specifier.startsWith("node:")) continue;
      if (specifier.startsWith("./")) continue;
      expect(Object.keys(packageJson.dependencies), `${file} imports ${specifier}`).toContain(specifier);
    }
    if (source.includes("build/server/index.js")) expect(copied).toContain("build");
  });

  it("runs the server directly as PID 1, so SIGTERM reaches it", () => {
    expect(finalStage).toMatch(/^CMD \["node", "server\.js"\]$/m);
    expect(finalStage).toMatch(/^USER node$/m);
  });
});

describe("compose.yaml", () => {
  const compose = read("compose.yaml");
  const service = (name: string) => {
    const start = compose.indexOf(`\n  ${name}:\n`);
    expect(start, name).toBeGreaterThan(-1);
    const rest = compose.slice(start + 1);
    const next = rest.slice(1).search(/\n {2}\S|\n\S/);
    return next === -1 ? rest : rest.slice(0, next + 1);
  };

  it("publishes only the TLS-terminating proxy", () => {
    expect(service("proxy")).toMatch(/ports: \[.*"443:443".*\]/);
    expect(service("app")).not.toMatch(/^\s+ports:/m);
    expect(service("db")).not.toMatch(/^\s+ports:/m);
  });

  it("sets TRUST_PROXY to the one proxy in front, and the public https address", () => {
    expect(service("app")).toMatch(/TRUST_PROXY: "1"/);
    expect(service("app")).toMatch(/PUBLIC_BASE_URL: https:\/\/\$\{PUBLIC_HOST\}/);
    expect(read("deploy/Caddyfile")).toMatch(/^\{\$PUBLIC_HOST\} \{$/m);
  });
});
