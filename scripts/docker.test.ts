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

  it.each(["db:seed", "api-key", "db:backup", "db:restore", "audit:verify"])("ships what `npm run %s` runs", (name) => {
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

describe("backups from the image (issue 33 item 19)", () => {
  // `docker compose exec app npm run db:backup` (docs/operations.md, Backups) runs pg_dump inside an app replica:
  // pg_dump must be at least compose's PostgreSQL major version (platform/db/backup.ts refuses an older one).
  const dockerfile = read("Dockerfile");
  const finalStage = dockerfile.slice(dockerfile.lastIndexOf("\nFROM "));
  const compose = read("compose.yaml");

  const serverMajor = Number(/^\s+image: postgres:(\d+)/m.exec(compose)?.[1]);
  const clientMajor = Number(/apt-get install [^\n]*\bpostgresql-client-(\d+)\b/.exec(finalStage)?.[1]);

  it("installs a PostgreSQL client in the final image at least as new as compose's server", () => {
    expect(serverMajor).toBeGreaterThanOrEqual(15);
    expect(clientMajor, "postgresql-client-<major> in the Dockerfile's final stage").toBeGreaterThanOrEqual(
      serverMajor,
    );
  });

  it("takes that client from PGDG for the base image's Debian release, with the repository's signing key", () => {
    const base = /^FROM node:[\w.]+-(\w+)-slim$/m.exec(finalStage)?.[1];
    expect(base, "the final stage's base image names its Debian release").toBeDefined();
    // Debian's own archive has only postgresql-client-15 in bookworm, so the client comes from apt.postgresql.org.
    expect(finalStage).toContain(`https://apt.postgresql.org/pub/repos/apt ${base}-pgdg main`);
    expect(finalStage).toMatch(/signed-by=\/usr\/share\/postgresql-common\/pgdg\/apt\.postgresql\.org\.asc/);
    expect(finalStage).toContain("https://www.postgresql.org/media/keys/ACCC4CF8.asc");
  });

  it("gives the node user a backups/ folder, kept on a volume the replicas share", () => {
    expect(finalStage).toMatch(/mkdir -p \/app\/backups && chown node:node \/app\/backups/);
    expect(finalStage.indexOf("/app/backups")).toBeLessThan(finalStage.indexOf("USER node"));
    const app = compose.slice(compose.indexOf("\n  app:\n"));
    expect(app).toMatch(
      /^\s+volumes: \[(?:[\w-]+:\/app\/[\w-]+, )*backups:\/app\/backups(?:, [\w-]+:\/app\/[\w-]+)*\]$/m,
    );
    expect(compose).toMatch(/^volumes:\n(?: {2}[\w-]+:\n)*? {2}backups:$/m);
  });

  it("is how docs/operations.md says to back up under compose", () => {
    const docs = read("docs/operations.md");
    expect(docs).toContain("docker compose exec app npm run db:backup");
    expect(docs).toContain(`postgresql-client-${clientMajor}`);
  });
});
