import type { Database } from "@platform/db/client";
import { member } from "@platform/db/schema";
import { useMigratedTestDatabase } from "@platform/testing/migrated-database";
import { inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { newMember } from "../loyalty/testing.server";
import type { StaffActor } from "../staff/actor";
import { MEMBER_PAGE_SIZE, memberIdsOfSearch, searchMembers } from "./console-search.server";

let db: Database;
useMigratedTestDatabase("console_search", (handle) => {
  db = handle.db;
});

const admin: StaffActor = {
  userId: "admin",
  role: "admin",
  displayName: "管理者",
  storeIds: [],
  currentStoreId: null,
  sessionId: "s",
  secondFactorAt: new Date(),
};

describe("the console's member list keyset", () => {
  it("pages through members who signed up within one millisecond (the database's microseconds), every one once", async () => {
    // Sign-ups keep the database's now(): microseconds. Every member here signed up within one millisecond, so a
    // cursor cut to the millisecond (a JavaScript Date) would end the list after the first page.
    const base = "2019-03-04T05:06:07.123";
    const members = [];
    for (let i = 0; i < MEMBER_PAGE_SIZE + 3; i++) members.push(await newMember(db));
    const ids = members.map((m) => m.id);
    await db.execute(sql`update member m set created_at = ${`${base}Z`}::timestamptz + (s.n * interval '7 microseconds')
      from (select id, row_number() over (order by id) as n from member where id in ${sql`(${sql.join(
        ids.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`}) s where m.id = s.id`);
    const rows = await db.select({ id: member.id, at: member.createdAt }).from(member).where(inArray(member.id, ids));
    expect(new Set(rows.map((r) => r.at.getTime())).size).toBe(1);
    const range = { signedUpFrom: new Date(`${base}Z`), signedUpTo: new Date("2019-03-04T05:06:08Z") };
    const first = await searchMembers(db, admin, range);
    expect(first.rows).toHaveLength(MEMBER_PAGE_SIZE);
    expect(first.nextAfter).toMatch(/^2019-03-04T05:06:07\.123\d{3}Z\|/);
    const second = await searchMembers(db, admin, { ...range, after: first.nextAfter });
    expect(second.nextAfter).toBeNull();
    const listed = [...first.rows, ...second.rows].map((r) => r.id);
    expect(listed).toHaveLength(ids.length);
    expect(new Set(listed)).toEqual(new Set(ids));
    const all = [];
    for await (const id of memberIdsOfSearch(db, admin, range)) all.push(id);
    expect(new Set(all)).toEqual(new Set(ids));
  }, 60_000);

  it("takes no cursor it did not make: a malformed one is the first page", async () => {
    const range = { signedUpFrom: new Date("2019-03-04T05:06:07Z"), signedUpTo: new Date("2019-03-04T05:06:08Z") };
    const first = await searchMembers(db, admin, range);
    for (const after of [
      "junk",
      "2019-03-04T05:06:07.123Z|not-a-uuid",
      `2019-13-45T00:00:00Z|${"0".repeat(36)}`,
      "\u0000",
    ]) {
      expect((await searchMembers(db, admin, { ...range, after })).rows).toEqual(first.rows);
    }
  });
});
