import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { BACKUP_APP, type BackupManifest, libpqTarget, readBackupFile, writeBackupFile } from "@platform/db/backup";
import { afterAll, describe, expect, it } from "vitest";

const dir = mkdtempSync(path.join(tmpdir(), "backup-file-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const manifest: BackupManifest = {
  app: BACKUP_APP,
  format: 1,
  driver: "postgres",
  migrations: 6,
  lastMigration: "0005_birthday_changed_at",
  createdAt: "2026-11-24T00:00:00.000Z",
  serverVersion: "15.20",
};
const payload = Buffer.from(Array.from({ length: 100_000 }, (_, i) => (i * 31) % 256));

async function written(name: string): Promise<string> {
  const file = path.join(dir, name);
  await writeBackupFile(file, manifest, Readable.from([payload.subarray(0, 40_000), payload.subarray(40_000)]));
  return file;
}

async function text(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

describe("backup files", () => {
  it("round-trips the manifest and the payload", async () => {
    const backup = await readBackupFile(await written("ok.hlbackup"));
    expect(backup.manifest).toEqual(manifest);
    expect(backup.payloadBytes).toBe(payload.length);
    expect((await text(backup.payload())).equals(payload)).toBe(true);
  });

  it("refuses a truncated file", async () => {
    const file = await written("cut.hlbackup");
    truncateSync(file, 60_000);
    await expect(readBackupFile(file)).rejects.toThrow(/incomplete \(truncated: its end marker is missing\): refused/);
  });

  it("refuses a file whose data was changed", async () => {
    const file = await written("flipped.hlbackup");
    const bytes = readFileSync(file);
    bytes[5_000] = (bytes[5_000] ?? 0) ^ 0xff;
    writeFileSync(file, bytes);
    await expect(readBackupFile(file)).rejects.toThrow(/damaged \(its checksum does not match\)/);
  });

  it("refuses a file from another program, and a backup of another app", async () => {
    const dump = path.join(dir, "plain.dump");
    writeFileSync(dump, "PGDMP\u0001\u000e\u0000 a pg_dump file without our header");
    await expect(readBackupFile(dump)).rejects.toThrow(`is not a backup made by this app (${BACKUP_APP})`);

    const other = path.join(dir, "other.hlbackup");
    await writeBackupFile(other, { ...manifest, app: "another-shop" }, Readable.from([payload]));
    await expect(readBackupFile(other)).rejects.toThrow('is a backup of "another-shop", not of han-living-member');
  });

  it("keeps the password off the command line", () => {
    expect(libpqTarget("postgres://app:s%40cret@db:5432/hl")).toEqual({
      url: "postgres://app@db:5432/hl",
      env: { PGPASSWORD: "s@cret" },
    });
  });
});
