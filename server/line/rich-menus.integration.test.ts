import { randomUUID } from "node:crypto";
import type { Database } from "@platform/db/client";
import { insertBulkMembers } from "@platform/testing/members";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as ClientModule from "../../app/domain/line/rich-menu-client.server";
import type * as InputModule from "../../app/domain/line/rich-menu-input";
import type * as LinksModule from "../../app/domain/line/rich-menu-links.server";
import type * as TestingModule from "../../app/domain/line/rich-menu-testing";
import type * as MenusModule from "../../app/domain/line/rich-menus.server";
import type * as LoyaltyTesting from "../../app/domain/loyalty/testing.server";
import type { StaffActor } from "../../app/domain/staff/actor";
import type * as StaffTestingModule from "../../app/domain/staff/testing.server";
import type { TestStaff } from "../../app/domain/staff/testing.server";
import { type DevApp, freePort, startDevApp } from "../testing/dev-app";

/**
 * The LINE rich menus by member state (issue 38 part 3, ADR 049) against the local LINE fake over HTTP: publishing
 * (created, image uploaded, the default for "not linked"), the outbox's triggers on LINE linking, unlinking,
 * follow and tier change, a 500 retried, nothing linked twice, and relinking in bulk calls of 500.
 */
let app: DevApp;
let base: string;
let db: Database;
let menus: typeof MenusModule;
let links: typeof LinksModule;
let input: typeof InputModule;
let png: typeof TestingModule.pngOf;
let loyalty: typeof LoyaltyTesting;
let richMenus: ClientModule.LineRichMenuClient;
let adminStaff: TestStaff;
let managerStaff: TestStaff;

const admin: StaffActor = {
  userId: "staff-admin",
  role: "admin",
  displayName: "Admin",
  storeIds: [],
  currentStoreId: null,
  sessionId: "s",
  secondFactorAt: new Date(),
};
const audit = {
  actorType: "staff" as const,
  userId: "staff-admin",
  role: "admin" as const,
  storeId: null,
  ip: null,
  userAgent: null,
  requestId: null,
};

beforeAll(async () => {
  const port = await freePort();
  app = await startDevApp({ APP_ENV: "test", PORT: String(port) }, "rich_menus");
  base = app.base;
  db = app.running.database.db;
  // The tests run the worker themselves (the app's own would race them for the rows).
  await app.running.richMenuDispatcher?.stop();
  const load = (file: string) => app.vite.ssrLoadModule(file);
  menus = (await load("/app/domain/line/rich-menus.server.ts")) as typeof MenusModule;
  links = (await load("/app/domain/line/rich-menu-links.server.ts")) as typeof LinksModule;
  input = (await load("/app/domain/line/rich-menu-input.ts")) as typeof InputModule;
  png = ((await load("/app/domain/line/rich-menu-testing.ts")) as typeof TestingModule).pngOf;
  loyalty = (await load("/app/domain/loyalty/testing.server.ts")) as typeof LoyaltyTesting;
  const client = (await load("/app/domain/line/rich-menu-client.server.ts")) as typeof ClientModule;
  const line = app.running.delivery.line;
  if (!line) throw new Error("expected the local LINE Messaging fake");
  richMenus = client.createLineRichMenuClient(line);
  const staffTesting = (await load("/app/domain/staff/testing.server.ts")) as typeof StaffTestingModule;
  const secret = app.running.config.secrets.session;
  adminStaff = await staffTesting.createTestStaff(db, secret, { role: "admin" });
  managerStaff = await staffTesting.createTestStaff(db, secret, { role: "manager", storeIds: ["xinyi-flagship"] });
}, 180_000);

afterAll(() => app?.stop());

const lineUser = () => `U${randomUUID().replace(/-/g, "")}`;
const deps = () => ({ db, richMenus, cardUrl: `${base}/member-center/card` });
/**
 * The database's clock, rounded up to the next millisecond. A row's due time is the database's `now()`, in
 * microseconds; a JavaScript Date read in the same millisecond is earlier than it, so the row would not be due yet
 * (CI caught a pass that found nothing, and every later test failed on the row it left).
 */
async function dbNow(): Promise<Date> {
  const result = await db.execute(sql`select ceil(extract(epoch from clock_timestamp()) * 1000)::float8 as ms`);
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<{ ms: number }>;
  return new Date(Number(rows[0]?.ms));
}

const work = async (now?: Date) => links.applyRichMenuLinks({ db, richMenus }, now ?? (await dbNow()));

function menuInput(title: string) {
  const parsed = input.parseRichMenuForm({
    title,
    chatBarText: "選單",
    a0x: "0",
    a0y: "0",
    a0w: "1250",
    a0h: "843",
    a0kind: "card",
    a1x: "1250",
    a1y: "0",
    a1w: "1250",
    a1h: "843",
    a1kind: "message",
    a1value: "會員卡",
  });
  if (!parsed.ok) throw new Error("menu form");
  return parsed.value;
}

async function publish(state: "unlinked" | "member" | "gold", title: string) {
  return menus.publishRichMenu(
    deps(),
    admin,
    { state, menu: menuInput(title), image: { bytes: png(2500, 843), type: "image/png", width: 2500, height: 843 } },
    audit,
  );
}

async function shown(userId: string) {
  const res = await fetch(`${base}/__line/messaging/richmenu/users/${userId}`);
  return (await res.json()) as {
    linked: string | null;
    defaultMenu: string | null;
    shown: string | null;
    name: string | null;
  };
}

async function fakeCalls() {
  const res = await fetch(`${base}/__line/messaging/richmenu`);
  return ((await res.json()) as { calls: { method: string; path: string; userIds: number; status: number }[] }).calls;
}

/** A member linked to a LINE user (the LINE login's account row), as the LINE login leaves it. */
async function linkedMember(userId = lineUser()) {
  const m = await loyalty.newMember(db);
  await db.execute(
    sql`insert into auth_account (id, account_id, provider_id, user_id) values (${randomUUID()}, ${userId}, 'line', ${m.userId})`,
  );
  return { member: m, userId };
}

async function linkRow(userId: string) {
  const result = await db.execute(
    sql`select status, generation, attempts, linked_menu, due_at from rich_menu_link where line_user_id = ${userId}`,
  );
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<{
    status: string;
    generation: number;
    attempts: number;
    linked_menu: string | null;
    due_at: string | Date;
  }>;
  return rows[0] ?? null;
}

describe("rich menus at the LINE fake", () => {
  let memberMenu: string;
  let defaultMenu: string;

  it("publishes a state's menu: created at LINE with its image, stored, audited; 'not linked' is LINE's default", async () => {
    defaultMenu = (await publish("unlinked", "未綁定選單")).lineRichMenuId;
    memberMenu = (await publish("member", "會員選單")).lineRichMenuId;
    const state = (await (await fetch(`${base}/__line/messaging/richmenu`)).json()) as {
      menus: { richMenuId: string; image: { type: string } | null }[];
      defaultMenu: string;
    };
    expect(state.defaultMenu).toBe(defaultMenu);
    expect(state.menus.find((m) => m.richMenuId === memberMenu)?.image?.type).toBe("image/png");
    const audited = await db.execute(
      sql`select count(*)::int as n from audit_log where action = 'rich_menu.published'`,
    );
    expect(
      Number(((Array.isArray(audited) ? audited : (audited as { rows: unknown[] }).rows)[0] as { n: number }).n),
    ).toBe(2);
  });

  it("refuses what LINE refuses, with LINE's error body, and stores nothing", async () => {
    const res = await fetch(
      `${app.running.config.lineMessaging.mode === "local" ? app.running.config.lineMessaging.apiBaseUrl : ""}/v2/bot/richmenu`,
      {
        method: "POST",
        headers: {
          Authorization: `Bearer ${app.running.config.lineMessaging.mode === "local" ? app.running.config.lineMessaging.accessToken : ""}`,
          "Content-Type": "application/json",
        },
        body: JSON.stringify({
          size: { width: 2500, height: 843 },
          selected: false,
          name: "x",
          chatBarText: "一二三四五六七八九十一二三四五",
          areas: [{ bounds: { x: 2000, y: 0, width: 600, height: 843 }, action: { type: "message", text: "hi" } }],
        }),
      },
    );
    expect(res.status).toBe(400);
    const body = (await res.json()) as { message: string; details: { property: string }[] };
    expect(body.details.map((d) => d.property).sort()).toEqual(["areas.0.bounds", "chatBarText"]);
    // An image of the wrong size for its menu: 400, and the console's publish is refused with nothing stored.
    const id = await richMenus.create(menus.lineRichMenuObject(menuInput("x"), { width: 2500, height: 843 }, base));
    await expect(richMenus.uploadImage(id, png(2500, 1686), "image/png")).rejects.toMatchObject({ status: 400 });
    await richMenus.remove(id);
  });

  it("links a member's LINE user on link, and unlinks it (the default shows) on unlink", async () => {
    const { userId } = await linkedMember();
    expect((await linkRow(userId))?.status).toBe("pending");
    await work();
    expect(await shown(userId)).toMatchObject({ linked: memberMenu, shown: memberMenu, name: "會員選單" });
    expect((await linkRow(userId))?.status).toBe("done");

    await db.execute(sql`delete from auth_account where account_id = ${userId}`);
    await work();
    expect(await shown(userId)).toMatchObject({ linked: null, shown: defaultMenu });
  });

  it("a follow of a LINE user who is no member changes nothing at LINE; a linked member's follow keeps their menu", async () => {
    const stranger = lineUser();
    const before = (await fakeCalls()).length;
    await fetch(`${base}/__line/messaging/users/${stranger}/follow`, { method: "POST" });
    expect((await linkRow(stranger))?.status).toBe("pending");
    const report = await work();
    expect(report).toMatchObject({ claimed: 1, unchanged: 1, calls: 0 });
    expect((await fakeCalls()).length).toBe(before);
    expect(await shown(stranger)).toMatchObject({ linked: null, shown: defaultMenu });

    const { userId } = await linkedMember();
    await work();
    await fetch(`${base}/__line/messaging/users/${userId}/follow`, { method: "POST" });
    expect((await linkRow(userId))?.status).toBe("pending");
    expect(await work()).toMatchObject({ claimed: 1, unchanged: 1, calls: 0 });
    expect((await shown(userId)).linked).toBe(memberMenu);
  });

  it("gives a member their tier's menu on a tier change, and the member menu again when it is removed", async () => {
    const goldMenu = (await publish("gold", "金卡選單")).lineRichMenuId;
    const { member, userId } = await linkedMember();
    await work();
    expect((await shown(userId)).linked).toBe(memberMenu);
    await db.execute(sql`insert into loyalty_account (member_id, tier) values (${member.id}, 'gold')
      on conflict (member_id) do update set tier = 'gold'`);
    await db.execute(sql`insert into tier_change (member_id, from_tier, to_tier, reason, spend_12_months)
      values (${member.id}, 'basic', 'gold', 'purchase', 100000)`);
    await work();
    expect((await shown(userId)).linked).toBe(goldMenu);

    await menus.removeRichMenu(deps(), admin, "gold", audit);
    await work();
    expect((await shown(userId)).linked).toBe(memberMenu);
  });

  it("retries after LINE's 500 with the pushes' back-off, then links once", async () => {
    const { userId } = await linkedMember();
    await fetch(`${base}/__line/messaging/richmenu/fail`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ count: 1, status: 500 }),
    });
    const now = await dbNow();
    expect(await work(now)).toMatchObject({ retried: 1, linked: 0 });
    const row = await linkRow(userId);
    expect(row).toMatchObject({ status: "pending", attempts: 1, linked_menu: null });
    expect(new Date(row?.due_at as string).getTime()).toBeGreaterThanOrEqual(now.getTime() + 30_000 - 1000);
    // Not due yet: nothing happens.
    expect(await work(now)).toMatchObject({ claimed: 0 });
    expect(await work(new Date(now.getTime() + 31_000))).toMatchObject({ claimed: 1, linked: 1 });
    expect((await shown(userId)).linked).toBe(memberMenu);
    // Idempotent: queued again with nothing changed, no call is made; nothing due, nothing claimed.
    await db.execute(sql`select rich_menu_enqueue(${userId})`);
    expect(await work(new Date(now.getTime() + 32_000))).toMatchObject({ claimed: 1, unchanged: 1, calls: 0 });
    expect(await work(new Date(now.getTime() + 33_000))).toMatchObject({ claimed: 0 });
  });

  it("relinks every member in bulk calls of 500 when the member menu changes (1,200 members → 3 calls)", async () => {
    await work();
    await insertBulkMembers(db, { prefix: "bulk-", count: 1200, numbers: "HB", phones: "+88697" });
    await db.execute(sql`
      insert into auth_account (id, account_id, provider_id, user_id)
      select gen_random_uuid()::text, 'U' || md5(user_id), 'line', user_id from member where user_id like 'bulk-%'`);
    await work();
    const before = (await fakeCalls()).length;
    const newMenu = (await publish("member", "會員選單 v2")).lineRichMenuId;
    const report = await work();
    const bulk = (await fakeCalls()).slice(before).filter((c) => c.path === "/v2/bot/richmenu/bulk/link");
    // The 1,200 and the few members linked by the tests above: three calls, none over 500.
    expect(bulk.map((c) => c.userIds).slice(0, 2)).toEqual([500, 500]);
    expect(bulk).toHaveLength(3);
    expect(bulk[2]?.userIds).toBeGreaterThanOrEqual(200);
    expect(bulk.every((c) => c.status === 202)).toBe(true);
    expect(report.linked).toBeGreaterThanOrEqual(1200);
    expect(
      (await shown(`U${(await import("node:crypto")).createHash("md5").update("bulk-7").digest("hex")}`)).linked,
    ).toBe(newMenu);
  });
});

describe("replaced menus and failed work", () => {
  const listed = async () =>
    (
      (await (await fetch(`${base}/__line/messaging/richmenu`)).json()) as { menus: { richMenuId: string }[] }
    ).menus.map((m) => m.richMenuId);
  async function retired(id: string) {
    const result = await db.execute(
      sql`select deleted_at, error, attempts from rich_menu_retired where line_rich_menu_id = ${id}`,
    );
    const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<{
      deleted_at: string | Date | null;
      error: string | null;
      attempts: number;
    }>;
    return rows[0] ?? null;
  }

  it("deletes a replaced menu at LINE once nobody is linked to it, not before", async () => {
    await publish("member", "會員選單 v2.5");
    const { userId } = await linkedMember();
    await work();
    const old = (await shown(userId)).linked as string;
    expect(old).toBeTruthy();
    const next = (await publish("member", "會員選單 v3")).lineRichMenuId;
    // The relink has not run: members still see the old menu, so it stays at LINE.
    expect(await links.deleteRetiredMenus({ db, richMenus }, await dbNow())).toBe(0);
    expect(await listed()).toContain(old);
    expect((await retired(old))?.deleted_at).toBeNull();
    const report = await work();
    expect(report.deleted).toBeGreaterThanOrEqual(1);
    expect((await shown(userId)).linked).toBe(next);
    expect(await listed()).not.toContain(old);
    expect((await retired(old))?.deleted_at).not.toBeNull();
    expect(await listed()).toContain(next);
  });

  it("keeps a deletion LINE refuses for an admin's retry, which also requeues failed links, audited", async () => {
    const { userId } = await linkedMember();
    await work();
    const old = (await shown(userId)).linked as string;
    await publish("member", "會員選單 v4");
    await work(); // relinks everyone; the deletion of the old menu comes last in the pass
    // Publish again and make LINE refuse the next deletion (a 400 is not retried by itself).
    const v4 = (await shown(userId)).linked as string;
    expect(v4).not.toBe(old);
    await publish("member", "會員選單 v5");
    await links.applyRichMenuLinks({ db, richMenus }, await dbNow(), { maxBatches: 100 });
    expect((await retired(v4))?.deleted_at).not.toBeNull();
    const v5 = (await shown(userId)).linked as string;
    await publish("member", "會員選單 v6");
    await work();
    await fetch(`${base}/__line/messaging/richmenu/fail`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ count: 1, status: 400 }),
    });
    // v5 is retired and no longer linked: its deletion is tried, refused, and waits (not retried by the next pass).
    await db.execute(sql`update rich_menu_retired set due_at = now(), deleted_at = null, error = null
      where line_rich_menu_id = ${v5}`);
    expect(await links.deleteRetiredMenus({ db, richMenus }, await dbNow())).toBe(0);
    expect((await retired(v5))?.error).toMatch(/400/);
    expect(await links.deleteRetiredMenus({ db, richMenus }, new Date(Date.now() + 86_400_000))).toBe(0);
    // A failed link too.
    const stuck = lineUser();
    await db.execute(sql`insert into rich_menu_link (line_user_id, status, attempts, error)
      values (${stuck}, 'failed', 8, 'line: 400')`);
    expect((await links.richMenuLinkCounts(db)).menusFailed).toBe(1);
    const counts = await links.retryFailedRichMenus(db, admin, audit);
    expect(counts.links).toBeGreaterThanOrEqual(1);
    expect(counts.menus).toBe(1);
    expect((await linkRow(stuck))?.status).toBe("pending");
    const audited = await db.execute(
      sql`select changes from audit_log where action = 'rich_menu.retried' order by pos desc limit 1`,
    );
    expect((Array.isArray(audited) ? audited : (audited as { rows: unknown[] }).rows)[0]).toMatchObject({
      changes: { links: { after: counts.links }, menus: { after: 1 } },
    });
    expect(await links.deleteRetiredMenus({ db, richMenus }, await dbNow())).toBe(1);
    expect(await listed()).not.toContain(v5);
    // A manager cannot retry.
    await expect(
      links.retryFailedRichMenus(db, { ...admin, role: "manager", storeIds: ["xinyi-flagship"] }, audit),
    ).rejects.toThrow();
  });
});

describe("the console's rich-menu pages", () => {
  const cookie = (staff: TestStaff) => `han_console=${staff.token}`;
  function postForm(state: string, fields: Record<string, string>, staff: TestStaff, image?: Uint8Array) {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    if (image) form.append("image", new Blob([image as Uint8Array<ArrayBuffer>], { type: "image/png" }), "menu.png");
    return fetch(`${base}/admin/rich-menus/${state}`, {
      method: "POST",
      body: form,
      headers: { origin: base, cookie: cookie(staff) },
      redirect: "manual",
    });
  }
  const fields = {
    intent: "publish",
    title: "一般會員選單",
    chatBarText: "會員",
    a0x: "0",
    a0y: "0",
    a0w: "2500",
    a0h: "843",
    a0kind: "card",
    a0value: "",
  };
  const basicRows = async () => {
    const result = await db.execute(sql`select count(*)::int as n from rich_menu where state = 'basic'`);
    return Number(((Array.isArray(result) ? result : (result as { rows: unknown[] }).rows)[0] as { n: number }).n);
  };

  it("全部重試 requeues failed links from the list page (admins only), with a notice", async () => {
    const stuck = lineUser();
    await db.execute(sql`insert into rich_menu_link (line_user_id, status, attempts, error)
      values (${stuck}, 'failed', 8, 'line: 400')`);
    const page = await (await fetch(`${base}/admin/rich-menus`, { headers: { cookie: cookie(adminStaff) } })).text();
    expect(page).toContain('data-testid="rich-menu-retry"');
    const post = (staff: TestStaff) =>
      fetch(`${base}/admin/rich-menus?index`, {
        method: "POST",
        body: new URLSearchParams({ intent: "retry" }),
        headers: { origin: base, cookie: cookie(staff) },
        redirect: "manual",
      });
    expect((await post(managerStaff)).status).toBe(403);
    const res = await post(adminStaff);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toMatch(/^\/admin\/rich-menus\?retried=\d+$/);
    expect((await linkRow(stuck))?.status).toBe("pending");
    const after = await (
      await fetch(`${base}${res.headers.get("location")}`, { headers: { cookie: cookie(adminStaff) } })
    ).text();
    expect(after).toMatch(/已將 \d+ 個失敗項目重新排入佇列/);
  });

  it("is for admins: a manager gets 403, a state that does not exist 404", async () => {
    expect((await fetch(`${base}/admin/rich-menus`, { headers: { cookie: cookie(managerStaff) } })).status).toBe(403);
    expect((await postForm("basic", fields, managerStaff, png(2500, 843))).status).toBe(403);
    expect((await fetch(`${base}/admin/rich-menus`, { headers: { cookie: cookie(adminStaff) } })).status).toBe(200);
    expect((await fetch(`${base}/admin/rich-menus/platinum`, { headers: { cookie: cookie(adminStaff) } })).status).toBe(
      404,
    );
    expect((await postForm("platinum", fields, adminStaff, png(2500, 843))).status).toBe(404);
    expect(await basicRows()).toBe(0);
  });

  it("refuses an image of the wrong size, an area outside the image and a NUL byte beside the fields, storing nothing", async () => {
    const wrong = await postForm("basic", { ...fields, title: "一般\u0000選單" }, adminStaff, png(2500, 2500));
    expect(wrong.status).toBe(400);
    const page = await wrong.text();
    expect(page).toContain("圖片的寬高比（寬 ÷ 高）至少要 1.45");
    // The NUL byte is removed from what was typed, which the form keeps.
    expect(page).toContain("一般選單");
    const outside = await postForm("basic", { ...fields, a0w: "2501" }, adminStaff, png(2500, 843));
    expect(outside.status).toBe(400);
    expect(await outside.text()).toContain("這個區域超出圖片範圍（2500×843）");
    const noImage = await postForm("basic", fields, adminStaff);
    expect(noImage.status).toBe(400);
    expect(await noImage.text()).toContain("請選擇選單圖片");
    expect(await basicRows()).toBe(0);
  });

  it("publishes through the form and audits it", async () => {
    const res = await postForm("basic", fields, adminStaff, png(2500, 843));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/admin/rich-menus?published=basic");
    expect(await basicRows()).toBe(1);
    const list = await (await fetch(`${base}/admin/rich-menus`, { headers: { cookie: cookie(adminStaff) } })).text();
    expect(list).toContain("一般會員選單");
  });
});
