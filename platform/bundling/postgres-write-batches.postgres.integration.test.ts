import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { Socket } from "node:net";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresWriteBatchesPatch, WRITE_AT_ONCE_BYTES } from "./postgres-write-batches";
import { applyPatches } from "./server-patches";

// postgres.js's ESM sources, as the server build bundles them; a copy of them published and one patched.
const published = path.join(process.cwd(), "node_modules", "postgres", "src");
type Postgres = (url: string, options: Record<string, unknown>) => PostgresSql;
type PostgresSql = {
  unsafe(
    text: string,
    params?: unknown[],
    options?: { prepare?: boolean },
  ): PromiseLike<unknown> & { execute(): unknown };
  end(options?: { timeout: number }): Promise<void>;
  reserve(): Promise<PostgresSql & { release(): void }>;
};

let dir: string;
let port: number;
const adminUrl = process.env.TEST_DATABASE_URL ?? "";
const loaded: Record<"published" | "patched", Postgres> = {} as never;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "postgres-writes-"));
  for (const kind of ["published", "patched"] as const) {
    const target = path.join(dir, kind, "postgres", "src");
    cpSync(published, target, { recursive: true });
    writeFileSync(path.join(target, "package.json"), '{ "type": "module" }');
    if (kind === "patched") {
      const file = path.join(target, "connection.js");
      const out = applyPatches([postgresWriteBatchesPatch], readFileSync(file, "utf8"), file, (message) => {
        throw new Error(message);
      });
      if (!out) throw new Error("the patch did not apply to postgres/src/connection.js");
      writeFileSync(file, out.code);
    }
    loaded[kind] = (await import(pathToFileURL(path.join(target, "index.js")).href)).default as Postgres;
  }
  port = Number(new URL(adminUrl || "postgres://x@127.0.0.1:5432/x").port || 5432);
});

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
});

/** Sends `statements` in one turn on one connection and counts the client's writes to the server meanwhile. */
async function writesOf(kind: "published" | "patched", statements: string[]): Promise<number> {
  const sql = loaded[kind](adminUrl, { max: 1, fetch_types: false, prepare: false, onnotice: () => {} });
  // One reserved connection, as a POS write holds (platform/db/held-connection.ts): it pipelines what it is given.
  // (A first statement opens the connection: postgres.js's reserve() waits for an open one.)
  await sql.unsafe("select 1");
  const reserved = await sql.reserve();
  const original = Socket.prototype.write;
  let writes = 0;
  Socket.prototype.write = function (this: Socket, ...args: Parameters<Socket["write"]>) {
    if (this.remotePort === port) writes += 1;
    return original.apply(this, args);
  } as Socket["write"];
  try {
    // Started in one turn: postgres.js gathers them and writes on its next setImmediate (or at its threshold).
    const queries = statements.map((text) => Promise.resolve(reserved.unsafe(text)));
    await Promise.all(queries);
    return writes;
  } finally {
    Socket.prototype.write = original;
    reserved.release();
    await sql.end({ timeout: 5 }).catch(() => {});
  }
}

describe.skipIf(!adminUrl)("postgres.js's writes in the server build (ADR 060)", () => {
  // Six statements of about 400 bytes each: a batch of about 2.5 kB, as a purchase's last batch.
  const batch = Array.from({ length: 6 }, (_, i) => `select ${i} as n, '${"x".repeat(400)}' as padding`);

  it("writes a pipelined batch over 1 kB in one write once patched (published: one write per kB)", async () => {
    expect(await writesOf("published", batch)).toBeGreaterThanOrEqual(2);
    expect(await writesOf("patched", batch)).toBe(1);
  });

  it("still writes at once from the threshold on (back-pressure reaches the caller as before)", async () => {
    const big = Array.from({ length: 3 }, (_, i) => `select ${i}, '${"y".repeat(WRITE_AT_ONCE_BYTES)}'`);
    expect(await writesOf("patched", big)).toBe(3);
  });

  it("names the line it replaces exactly once in the installed postgres.js", () => {
    const code = readFileSync(path.join(published, "connection.js"), "utf8");
    expect(code.split(postgresWriteBatchesPatch.find).length).toBe(2);
  });
});
