import type { Database } from "@platform/db/client";
import { member, pointEntry } from "@platform/db/schema";
import { useMigratedTestDatabase } from "@platform/testing/migrated-database";
import { and, eq, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { fromTaipeiWallClock } from "~/lib/time";
import { grantBirthdayPoints } from "../loyalty/points.server";
import { newMember } from "../loyalty/testing.server";
import { changeMemberBirthday } from "./birthday.server";
import { createMember } from "./members.server";

let db: Database;
useMigratedTestDatabase("birthday", (handle) => {
  db = handle.db;
});

const at = (year: number, month: number, day: number) => fromTaipeiWallClock({ year, month, day }, 12);

async function birthdayEntries(memberId: string) {
  return db
    .select({ key: pointEntry.idempotencyKey })
    .from(pointEntry)
    .where(and(eq(pointEntry.memberId, memberId), like(pointEntry.idempotencyKey, "birthday:%")));
}

describe("birthday changes and birthday points", () => {
  it("records when the birthday changed, and only when it really changed", async () => {
    const m = await newMember(db, { birthday: "1990-06-10" });
    expect(await changeMemberBirthday(db, m.id, "1990-06-10", at(2026, 1, 5))).toEqual({
      changed: false,
      pointsWithheldThisYear: false,
    });
    expect(await changeMemberBirthday(db, m.id, "1990-02-01", at(2026, 1, 5))).toEqual({
      changed: true,
      pointsWithheldThisYear: true,
    });
    const [row] = await db.select().from(member).where(eq(member.id, m.id));
    expect(row).toMatchObject({ birthday: "1990-02-01", birthdayChangedAt: at(2026, 1, 5) });
    expect(await changeMemberBirthday(db, m.id, null, at(2026, 1, 6))).toEqual({
      changed: true,
      pointsWithheldThisYear: false,
    });
    const [cleared] = await db.select().from(member).where(eq(member.id, m.id));
    expect(cleared).toMatchObject({ birthday: null, birthdayChangedAt: null });
    await expect(changeMemberBirthday(db, m.id, "10/02/1990")).rejects.toThrow("YYYY-MM-DD");
  });

  it("pays nothing this year for a birthday changed to within 30 days, and pays next year", async () => {
    const recent = await newMember(db, { birthday: "1990-08-01" });
    const early = await newMember(db, { birthday: "1990-08-01" });
    await changeMemberBirthday(db, recent.id, "1990-03-20", at(2026, 3, 1)); // 19 days ahead
    await changeMemberBirthday(db, early.id, "1990-03-20", at(2026, 1, 10)); // 69 days ahead
    await grantBirthdayPoints(db, at(2026, 3, 2));
    expect(await birthdayEntries(recent.id)).toEqual([]);
    expect(await birthdayEntries(early.id)).toEqual([{ key: `birthday:${early.id}:2026` }]);
    await grantBirthdayPoints(db, at(2027, 3, 1));
    expect(await birthdayEntries(recent.id)).toEqual([{ key: `birthday:${recent.id}:2027` }]);
  });

  it("applies the rule to the birthday given at sign-up too", async () => {
    const userId = crypto.randomUUID();
    const { authUser } = await import("@platform/db/schema");
    await db.insert(authUser).values({ id: userId, name: "新會員", email: `${userId}@phone.invalid` });
    const today = new Date();
    const soon = new Date(today.getTime() + 10 * 86_400_000);
    const birthday = `1995-${String(soon.getUTCMonth() + 1).padStart(2, "0")}-${String(soon.getUTCDate()).padStart(2, "0")}`;
    const created = await createMember(db, {
      userId,
      phoneNumber: `+8869${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`,
      signupMethod: "phone",
      ip: null,
      profile: {
        nameZh: "新會員",
        gender: "female",
        birthday,
        marketingSms: false,
        marketingEmail: false,
        marketingLine: false,
      },
    });
    expect(created.birthdayChangedAt).not.toBeNull();
    await grantBirthdayPoints(db, soon);
    expect(await birthdayEntries(created.id)).toEqual([]);
  });
});
