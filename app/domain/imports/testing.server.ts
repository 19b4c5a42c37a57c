import type { Database } from "@platform/db/client";
import { importRow } from "@platform/db/schema";
import { eq } from "drizzle-orm";
import type { CsvMapping } from "./record";
import type { NamedStream } from "./run-store.server";

/** Test helpers for the import engine (no test-runner imports): files as streams, fixtures, Firebase hashes. */

export function textStream(name: string, text: string, chunkSize = 64 * 1024): NamedStream {
  const bytes = new TextEncoder().encode(text);
  async function* chunks(): AsyncIterable<Uint8Array> {
    for (let i = 0; i < bytes.length; i += chunkSize) yield bytes.slice(i, i + chunkSize);
  }
  return { name, bytes: bytes.length, stream: chunks() };
}

export const TEST_CSV_MAPPING: CsvMapping = {
  id: "externalId",
  phone: "phoneNumber",
  name: "nameZh",
  email: "email",
  points: "points",
  last_day: "pointsLastDay",
  tier: "tier",
};

export type CsvFixtureRow = {
  id: string;
  phone: string;
  name: string;
  email?: string;
  points?: string | number;
  lastDay?: string;
  tier?: string;
};

const cell = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/** A CSV in the columns of TEST_CSV_MAPPING. */
export function csvFixture(rows: CsvFixtureRow[]): string {
  const lines = ["id,phone,name,email,points,last_day,tier"];
  for (const r of rows) {
    lines.push(
      [r.id, r.phone, r.name, r.email ?? "", String(r.points ?? ""), r.lastDay ?? "", r.tier ?? ""].map(cell).join(","),
    );
  }
  return `${lines.join("\r\n")}\r\n`;
}

/** `n` generated members: phones 0912000000 + i, points i % 500, ids m<i>. */
export function generatedCsv(n: number, offset = 0): string {
  const lines = ["id,phone,name,email,points,last_day,tier"];
  for (let i = offset; i < offset + n; i++) {
    lines.push(`m${i},09${String(12_000_000 + i).padStart(8, "0")},會員${i},m${i}@example.com,${i % 500},,`);
  }
  return `${lines.join("\r\n")}\r\n`;
}

export async function rowsOfRun(db: Database, runId: string) {
  return db.select().from(importRow).where(eq(importRow.runId, runId)).orderBy(importRow.line);
}
