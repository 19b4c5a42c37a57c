import type { Database } from "@platform/db/client";
import { importRow, importRun } from "@platform/db/schema";
import { eq } from "drizzle-orm";
import { recordPurchase } from "../loyalty/purchases.server";
import { newMember } from "../loyalty/testing.server";
import { linkReferral } from "../referrals/referrals.server";
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

/** A queued grant of `points` to each member, rows in the order given (as staged from a file). */
export async function queuedGrant(db: Database, memberIds: string[], points: number): Promise<string> {
  const [run] = await db
    .insert(importRun)
    .values({
      kind: "grant",
      source: "grant",
      status: "queued",
      fileSha256: "",
      options: { notify: false },
      report: { rows: memberIds.length, rejected: 0 },
    })
    .returning({ id: importRun.id });
  const runId = (run as { id: string }).id;
  await db.insert(importRow).values(
    memberIds.map((memberId, i) => ({
      runId,
      line: i + 2,
      raw: {},
      record: { memberId, points, reason: "活動補點" },
      plan: "create" as const,
    })),
  );
  return runId;
}

export type ReferredPair = {
  referrer: Awaited<ReturnType<typeof newMember>>;
  friend: Awaited<ReturnType<typeof newMember>>;
};

/** `n` members who each referred a friend who has not bought yet (the referral pending). */
export async function referredPairs(db: Database, n: number): Promise<ReferredPair[]> {
  const pairs: ReferredPair[] = [];
  for (let i = 0; i < n; i++) {
    const referrer = await newMember(db);
    const friend = await newMember(db);
    await db.transaction((tx) => linkReferral(tx, { friendId: friend.id, code: referrer.referralCode }));
    pairs.push({ referrer, friend });
  }
  return pairs;
}

let friendReceipt = 0;

/**
 * Every friend's first purchase (NT$3,000, which decides the referral), `lanes` at a time on `db`: each locks the
 * friend's account, then the referrer's (ADR 053). One promise per lane.
 */
export function friendsBuying(db: Database, pairs: ReferredPair[], lanes = 4): Promise<void>[] {
  let next = 0;
  const lane = async () => {
    while (next < pairs.length) {
      const { friend } = pairs[next++] as ReferredPair;
      await recordPurchase(db, {
        memberId: friend.id,
        storeId: "S01",
        receiptNumber: `FR-${++friendReceipt}`,
        netAmount: 3_000,
        purchasedAt: new Date(),
      });
    }
  };
  return Array.from({ length: lanes }, lane);
}
