import type { DatabaseHandle } from "@platform/db/client";
import { richMenu, richMenuLink } from "@platform/db/schema";
import { insertBulkMembers } from "@platform/testing/members";
import { useTwoPostgresInstances } from "@platform/testing/two-instances";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { LineRichMenuClient } from "./rich-menu-client.server";
import { applyRichMenuLinks } from "./rich-menu-links.server";
import { pngOf } from "./rich-menu-testing";
import { queueRelink } from "./rich-menus.server";

/**
 * The rich-menu relinking over two instances (ADR 049): both workers claim from one outbox with `skip locked`, so
 * every LINE user is linked exactly once, and a user queued again while being linked is linked again afterwards.
 * Only on PostgreSQL (PGlite serialises everything on one connection).
 */
let one: DatabaseHandle;
let two: DatabaseHandle;

useTwoPostgresInstances("rich_menu_links_conc", (pair) => {
  ({ one, two } = pair);
});

/** A LINE stand-in that counts who was linked to what, slowly (so the two workers overlap). */
function countingLine() {
  const linked = new Map<string, string[]>();
  const take = async (menu: string, ids: string[]) => {
    await new Promise((r) => setTimeout(r, 20));
    for (const id of ids) linked.set(id, [...(linked.get(id) ?? []), menu]);
  };
  const client = {
    link: (user: string, menu: string) => take(menu, [user]),
    bulkLink: (menu: string, users: string[]) => take(menu, users),
    unlink: (user: string) => take("none", [user]),
    bulkUnlink: (users: string[]) => take("none", users),
  } as unknown as LineRichMenuClient;
  return { client, linked };
}

async function publishMember(db: DatabaseHandle["db"], id: string) {
  const values = {
    title: "會員選單",
    chatBarText: "會員",
    width: 2500,
    height: 843,
    areas: [{ x: 0, y: 0, width: 2500, height: 843, kind: "card" as const, value: "" }],
    imageType: "image/png" as const,
    image: pngOf(2500, 843),
    lineRichMenuId: id,
  };
  await db
    .insert(richMenu)
    .values({ state: "member", ...values })
    .onConflictDoUpdate({ target: richMenu.state, set: values });
  await queueRelink(db, "member");
}

describe("rich-menu linking over two instances", () => {
  it("links each of 2,000 members once when two workers run at once", { timeout: 120_000 }, async () => {
    await insertBulkMembers(one.db, { prefix: "race-", count: 2000, numbers: "HR", phones: "+88698" });
    await one.db.execute(sql`
      insert into auth_account (id, account_id, provider_id, user_id)
      select gen_random_uuid()::text, 'U' || md5(user_id), 'line', user_id from member where user_id like 'race-%'`);
    await publishMember(one.db, "richmenu-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
    const line = countingLine();
    const [a, b] = await Promise.all([
      applyRichMenuLinks({ db: one.db, richMenus: line.client, batchSize: 250 }),
      applyRichMenuLinks({ db: two.db, richMenus: line.client, batchSize: 250 }),
    ]);
    expect(a.claimed + b.claimed).toBe(2000);
    // Both did part of the work, and nobody was linked twice.
    expect(a.claimed).toBeGreaterThan(0);
    expect(b.claimed).toBeGreaterThan(0);
    expect(line.linked.size).toBe(2000);
    expect([...line.linked.values()].every((menus) => menus.length === 1)).toBe(true);
    const rows = await one.db.select({ status: richMenuLink.status, menu: richMenuLink.linkedMenu }).from(richMenuLink);
    expect(
      rows.filter((r) => r.status === "done" && r.menu === "richmenu-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"),
    ).toHaveLength(2000);
  });

  it("a menu published while its users are being linked links them again to the new one, each once more", {
    timeout: 120_000,
  }, async () => {
    await publishMember(one.db, "richmenu-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb");
    const line = countingLine();
    const first = applyRichMenuLinks({ db: one.db, richMenus: line.client, batchSize: 500 });
    // While the first worker is inside its calls: a newer menu, and a second instance's worker.
    await new Promise((r) => setTimeout(r, 10));
    await publishMember(two.db, "richmenu-cccccccccccccccccccccccccccccccc");
    await Promise.all([first, applyRichMenuLinks({ db: two.db, richMenus: line.client, batchSize: 500 })]);
    // Whatever the first pass took, a last pass finds the rows it left pending (queued again while sending).
    await applyRichMenuLinks({ db: one.db, richMenus: line.client });
    const rows = await one.db.select({ status: richMenuLink.status, menu: richMenuLink.linkedMenu }).from(richMenuLink);
    expect(rows.filter((r) => r.status !== "done")).toEqual([]);
    expect(rows.every((r) => r.menu === "richmenu-cccccccccccccccccccccccccccccccc")).toBe(true);
    // No user was linked to the same menu twice.
    for (const menus of line.linked.values()) expect(new Set(menus).size).toBe(menus.length);
  });

  it("menus published over and over while two workers record their outcomes never deadlock", {
    timeout: 120_000,
  }, async () => {
    // Both statements lock many of the same rows: the relink every user, an outcome its batch. In different orders
    // they deadlocked (CI, 2026-12-07); both now lock in the users' order.
    const instant = {
      link: async () => {},
      bulkLink: async () => {},
      unlink: async () => {},
      bulkUnlink: async () => {},
    } as unknown as LineRichMenuClient;
    const relinks = (db: DatabaseHandle["db"], pause: number) => async () => {
      for (let k = 0; k < 4; k++) {
        await new Promise((r) => setTimeout(r, pause));
        await queueRelink(db, "member");
      }
    };
    const failures: unknown[] = [];
    for (let round = 0; round < 6; round++) {
      await publishMember(one.db, `richmenu-${String(round).padStart(32, "d")}`);
      const settled = await Promise.allSettled([
        applyRichMenuLinks({ db: one.db, richMenus: instant, batchSize: 50 }),
        applyRichMenuLinks({ db: two.db, richMenus: instant, batchSize: 50 }),
        relinks(two.db, 5 + round)(),
        relinks(one.db, 7 + (round % 3))(),
      ]);
      for (const s of settled)
        if (s.status === "rejected") failures.push(String((s.reason as Error).cause ?? s.reason));
    }
    expect(failures).toEqual([]);
    await applyRichMenuLinks({ db: one.db, richMenus: instant });
    const rows = await one.db.select({ status: richMenuLink.status, menu: richMenuLink.linkedMenu }).from(richMenuLink);
    expect(rows.filter((r) => r.status !== "done")).toEqual([]);
    expect(rows.every((r) => r.menu === `richmenu-${"5".padStart(32, "d")}`)).toBe(true);
  });
});
