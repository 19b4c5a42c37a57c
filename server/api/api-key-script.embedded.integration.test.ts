import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { openDatabase } from "@platform/db/client";
import { apiKey } from "@platform/db/schema";
import { insertTestStores } from "@platform/testing/stores";
import { expect, it } from "vitest";
import { authenticateApiKey } from "../../app/domain/pos/api-keys.server";

const run = promisify(execFile);
const script = path.resolve(import.meta.dirname, "../../scripts/api-key.js");

it("npm run api-key creates a key that authenticates, lists it and revokes it", async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "api-key-"));
  try {
    const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "" };
    let database = await openDatabase({ kind: "pglite", dataDir: path.join(dataDir, "pglite") });
    await database.migrate();
    await insertTestStores(database.db, ["TPE01"]);
    await database.close();

    // A store that does not exist gets no key: the command names the stores it knows.
    const refused = await run(process.execPath, [script, "create", "TPE99", "Nowhere"], { env }).catch(
      (error: { code: number; stderr: string; stdout: string }) => error,
    );
    expect(refused).toMatchObject({ code: 2, stdout: "" });
    expect(refused.stderr).toContain('no store with id "TPE99"; known stores: TPE01');
    expect((await run(process.execPath, [script, "list"], { env })).stdout).toBe("");

    const created = await run(process.execPath, [script, "create", "TPE01", "Taipei", "POS"], { env });
    const secret = /key:\s+(\S+)/.exec(created.stdout)?.[1] ?? "";
    const id = /id:\s+(\S+)/.exec(created.stdout)?.[1] ?? "";
    expect(secret).toMatch(/^hlpos_[A-Za-z0-9_-]{43}$/);
    expect((await run(process.execPath, [script, "list"], { env })).stdout).toContain("TPE01\tTaipei POS");

    database = await openDatabase({ kind: "pglite", dataDir: path.join(dataDir, "pglite") });
    expect(await authenticateApiKey(database.db, secret)).toMatchObject({ id, storeId: "TPE01" });

    // The database refuses an unknown store too, whoever writes the row.
    await expect(
      database.db.insert(apiKey).values({ storeId: "TPE99", name: "x", prefix: "hlpos_x", secretHash: "h" }),
    ).rejects.toThrow();
    await database.close();

    expect((await run(process.execPath, [script, "revoke", id], { env })).stdout).toContain("revoked");
    database = await openDatabase({ kind: "pglite", dataDir: path.join(dataDir, "pglite") });
    expect(await authenticateApiKey(database.db, secret)).toBeNull();
    await database.close();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 180_000);
