import { type Database, type DatabaseHandle, openDatabase } from "@platform/db/client";
import { automaticMessage } from "@platform/db/schema";
import { createTestDatabase, type TestDatabase } from "@platform/testing/database";
import { type MigrationsBefore, migrationsBefore } from "@platform/testing/migrations-before";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { automaticSetting } from "./settings.server";
import { AUTOMATIC_DEFAULTS } from "./templates";

/**
 * Issue 33 item 15 (ADR 034): the welcome goes by LINE and e-mail, not by a paid text message, unless an admin adds
 * SMS. Installs whose welcome row is still exactly the old default (every channel, the default texts, saved once and
 * never edited since) are corrected by the welcome_without_sms migration; every other row is left as the admin set it.
 */

const OLD_WELCOME = {
  enabled: true,
  textZh: "{name} 您好，歡迎加入漢生活會員！已為您存入 {points} 點迎新點數，結帳時出示會員卡即可累積點數。",
  textEn:
    "Hello {name}, welcome to Han Living! We have added {points} welcome points. Show your member card at checkout to earn more.",
  channels: ["line", "sms", "email"] as ("line" | "sms" | "email")[],
};

/** Every migration before welcome_without_sms: the database as an older release left it. */
let before: MigrationsBefore;

beforeAll(() => {
  before = migrationsBefore("_welcome_without_sms");
});

afterAll(() => {
  before.remove();
});

/** A database migrated as an older release, `row` saved in it, then every migration of this release applied. */
async function upgradedWith(
  row: (typeof automaticMessage.$inferInsert)[],
  check: (db: Database) => Promise<void>,
): Promise<void> {
  const testDb: TestDatabase = await createTestDatabase({ label: "welcome_default" });
  let handle: DatabaseHandle | undefined;
  try {
    handle = await openDatabase(testDb.config);
    await before.migrate(handle);
    if (row.length > 0) await handle.db.insert(automaticMessage).values(row);
    await handle.migrate();
    await check(handle.db);
  } finally {
    await handle?.close();
    await testDb.drop();
  }
}

async function channelsOf(db: Database, kind: "welcome" | "tier-up" | "receipt") {
  const [row] = await db.select().from(automaticMessage).where(eq(automaticMessage.kind, kind));
  return row ? { channels: row.channels, version: row.version } : null;
}

describe("the welcome's channels by default", () => {
  it("are LINE and e-mail, like the receipt's; the other automatic messages keep every channel", () => {
    expect(AUTOMATIC_DEFAULTS.welcome.channels).toEqual(["line", "email"]);
    expect(AUTOMATIC_DEFAULTS.receipt.channels).toEqual(["line", "email"]);
    for (const kind of ["tier-up", "points-expiring-30", "points-expiring-7", "coupon-expiring", "birthday"] as const)
      expect(AUTOMATIC_DEFAULTS[kind].channels).toEqual(["line", "sms", "email"]);
  });

  it("an install that never saved the welcome sends it without SMS after the upgrade", async () => {
    await upgradedWith([], async (db) => {
      expect(await channelsOf(db, "welcome")).toBeNull();
      expect((await automaticSetting(db, "welcome")).channels).toEqual(["line", "email"]);
    });
  });

  it("a welcome row still equal to the old default loses SMS (and a form open on it is told it changed)", async () => {
    await upgradedWith(
      [
        { kind: "welcome", ...OLD_WELCOME, version: 1, updatedBy: "admin-1" },
        { kind: "tier-up", ...OLD_WELCOME, textZh: "升級了 {name}", textEn: "Up, {name}", version: 1 },
      ],
      async (db) => {
        expect(await channelsOf(db, "welcome")).toEqual({ channels: ["line", "email"], version: 2 });
        expect((await automaticSetting(db, "welcome")).channels).toEqual(["line", "email"]);
        // Only the welcome: the tier-up message goes by every channel by default, as before.
        expect(await channelsOf(db, "tier-up")).toEqual({ channels: ["line", "sms", "email"], version: 1 });
      },
    );
  });

  it("a welcome an admin edited keeps SMS: a later save, another text, or switched off", async () => {
    const edited = [
      { ...OLD_WELCOME, version: 2 },
      { ...OLD_WELCOME, version: 1, textZh: "{name} 歡迎！" },
      { ...OLD_WELCOME, version: 1, textEn: "Welcome, {name}!" },
      { ...OLD_WELCOME, version: 1, enabled: false },
    ];
    for (const fields of edited) {
      await upgradedWith([{ kind: "welcome", ...fields }], async (db) => {
        expect(await channelsOf(db, "welcome")).toEqual({
          channels: ["line", "sms", "email"],
          version: fields.version,
        });
      });
    }
  });
});
