import type { Database } from "@platform/db/client";
import type * as Schema from "@platform/db/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as CardTokensModule from "../app/domain/loyalty/card-tokens.server";
import type * as TestingModule from "../app/domain/loyalty/testing.server";
import type * as StaffTestingModule from "../app/domain/staff/testing.server";
import type { TestStaff } from "../app/domain/staff/testing.server";
import { type DevApp, startDevApp } from "./testing/dev-app";

/**
 * The walk-in sample loan at the counter over HTTP (issue 37 part 3, ADR 046): a card scan gives the member page
 * its scan proof and the "借出樣品" button, a typed phone does not; the loan page without a proof, with a forged or
 * another clerk's proof refuses (403, nothing stored, a forged one audited); forged material ids, a material
 * without samples at the store, over the limit and NUL bytes are 4xx with the message beside the boxes and the
 * ticks kept; a loan creates handed-out rows due back in 14 Taipei days, audited, on the member's samples page.
 */
let app: DevApp;
let base: string;
let db: Database;
let schema: typeof Schema;
let drizzle: typeof import("drizzle-orm");
let cards: typeof CardTokensModule;
let testing: typeof TestingModule;
let secret: string;
let clerk: TestStaff;
let stranger: TestStaff;
let here: string[] = [];
let elsewhereOnly = "";

const HOOKS = "counter-samples-hooks-secret-0123456789";
// 23:30 Taipei on 7 December: the due day is 14 Taipei days after the 7th, the 21st.
const NOW = new Date("2026-12-07T15:30:00.000Z");
const STORE = "xinyi-flagship";

const headersOf = (staff: TestStaff | null) => ({
  ...(staff ? { cookie: `han_console=${staff.token}` } : {}),
  accept: "text/html",
  "x-test-hooks-secret": HOOKS,
  "x-test-now": NOW.toISOString(),
});
const get = (pathname: string, staff: TestStaff | null) =>
  fetch(`${base}${pathname}`, { headers: headersOf(staff), redirect: "manual" });
const post = (pathname: string, fields: [string, string][], staff: TestStaff) =>
  fetch(`${base}${pathname}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { ...headersOf(staff), origin: base },
    redirect: "manual",
  });

beforeAll(async () => {
  app = await startDevApp(
    { APP_ENV: "test", TEST_HOOKS_SECRET: HOOKS, SEED_DEMO_CONTENT: "true" },
    "counter_samples_pages",
  );
  base = app.base;
  db = app.running.database.db;
  const load = (file: string) => app.vite.ssrLoadModule(file);
  const staff = (await load("/app/domain/staff/testing.server.ts")) as typeof StaffTestingModule;
  testing = (await load("/app/domain/loyalty/testing.server.ts")) as typeof TestingModule;
  cards = (await load("/app/domain/loyalty/card-tokens.server.ts")) as typeof CardTokensModule;
  schema = (await load("/platform/db/schema/index.ts")) as typeof Schema;
  drizzle = await import("drizzle-orm");
  secret = app.running.config.secrets.session;
  clerk = await staff.createTestStaff(db, secret, { role: "staff", storeIds: [STORE], displayName: "借樣品店員" });
  stranger = await staff.createTestStaff(db, secret, { role: "staff", storeIds: [STORE], displayName: "同店另一位" });
  const rows = await db
    .select({ id: schema.materialSampleStore.materialId, storeId: schema.materialSampleStore.storeId })
    .from(schema.materialSampleStore)
    .innerJoin(schema.material, drizzle.eq(schema.material.id, schema.materialSampleStore.materialId))
    .where(drizzle.eq(schema.material.published, true));
  here = [...new Set(rows.filter((r) => r.storeId === STORE).map((r) => r.id))].sort();
  // A published material of the catalogue without samples at this store.
  const published = await db
    .select({ id: schema.material.id })
    .from(schema.material)
    .where(drizzle.eq(schema.material.published, true));
  elsewhereOnly = published.find((r) => !here.includes(r.id))?.id ?? "";
}, 180_000);

afterAll(() => app?.stop());

/** The member page the card scan leads to, and the loan page's address with its proof. */
async function scanned(memberId: string, staff: TestStaff) {
  const { token } = cards.issueCardToken(secret, memberId, NOW);
  const res = await post("/admin/counter?index", [["cardToken", token]], staff);
  expect(res.status).toBe(302);
  const location = res.headers.get("location") ?? "";
  const scan = new URL(location, base).searchParams.get("scan") ?? "";
  expect(scan).toMatch(/^[0-9a-z]+\.[\w-]{43}$/);
  return { location, scan, loan: `/admin/counter/member/${memberId}/samples` };
}

const rowsOf = (memberId: string) =>
  db.select().from(schema.sampleRequest).where(drizzle.eq(schema.sampleRequest.memberId, memberId));

describe("the walk-in sample loan at the counter", () => {
  it("is offered after a card scan, not after a typed phone; it hands out, audited, due back in Taipei days", async () => {
    expect(here.length).toBeGreaterThanOrEqual(6);
    expect(elsewhereOnly).not.toBe("");
    const m = await testing.newMember(db, { nameZh: "林借用" });
    // A typed member number finds the member but proves nothing: no button, the loan page says scan first.
    const typed = await post("/admin/counter?index", [["query", m.memberNumber]], clerk);
    expect(typed.headers.get("location")).toBe(`/admin/counter/member/${m.id}`);
    const typedPage = await (await get(`/admin/counter/member/${m.id}`, clerk)).text();
    expect(typedPage.includes("借出樣品")).toBe(false);
    const noProof = await (await get(`/admin/counter/member/${m.id}/samples`, clerk)).text();
    expect(noProof.includes("借出樣品前請先掃描會員卡")).toBe(true);
    expect(noProof.includes('name="materials"')).toBe(false);
    const refused = await post(`/admin/counter/member/${m.id}/samples`, [["materials", here[0] as string]], clerk);
    expect(refused.status).toBe(403);
    expect(await rowsOf(m.id)).toHaveLength(0);

    // The card: the member page links to the loan page with the proof.
    const scan = await scanned(m.id, clerk);
    const memberPage = await (await get(scan.location, clerk)).text();
    expect(memberPage).toContain(`href="${scan.loan}?scan=${scan.scan}"`);
    const loanRes = await get(`${scan.loan}?scan=${scan.scan}`, clerk);
    const loanPage = await loanRes.text();
    expect(loanRes.status, loanPage.slice(0, 3000)).toBe(200);
    expect(loanPage.includes("借出樣品給 林借用")).toBe(true);
    expect(loanPage).toContain(`value="${here[0]}"`);
    expect(loanPage.includes("借用中與申請中：0 / 5 件")).toBe(true);

    const lent = await post(
      scan.loan,
      [
        ["scan", scan.scan],
        ["materials", here[0] as string],
        ["materials", here[1] as string],
      ],
      clerk,
    );
    expect(lent.status, await lent.clone().text()).toBe(302);
    expect(lent.headers.get("location")).toBe(`${scan.loan}?scan=${scan.scan}&lent=2`);
    const rows = await rowsOf(m.id);
    expect(rows.map((r) => [r.materialId, r.status, r.dueBackOn, r.storeId, r.handedOutBy]).sort()).toEqual(
      [here[0], here[1]].map((id) => [id, "handed_out", "2026-12-21", STORE, clerk.actor.userId]).sort(),
    );
    const audits = await db
      .select()
      .from(schema.auditLog)
      .where(
        drizzle.and(
          drizzle.eq(schema.auditLog.action, "sample.handed_out"),
          drizzle.inArray(
            schema.auditLog.targetId,
            rows.map((r) => r.id),
          ),
        ),
      );
    expect(audits).toHaveLength(2);
    const done = await (await get(lent.headers.get("location") ?? "", clerk)).text();
    expect(done.includes("已交付 2 件樣品")).toBe(true);
    expect(done.includes("借用中與申請中：2 / 5 件")).toBe(true);
    // The console's samples list shows them out, due back on the 21st.
    const list = await (await get(`/admin/samples?member=${m.id}&status=handed_out`, clerk)).text();
    expect(list.match(/data-testid="sample-row"/g)).toHaveLength(2);
  });

  it("refuses a forged or another clerk's proof (the forged one audited), bad material ids and over the limit", async () => {
    const m = await testing.newMember(db, { nameZh: "王拒絕" });
    const scan = await scanned(m.id, clerk);
    // As the browser sends it: to the page's own address (with its proof), the proof also in the form.
    const send = (fields: [string, string][], staff = clerk) => post(`${scan.loan}?scan=${scan.scan}`, fields, staff);
    // Another clerk of the same store cannot use this clerk's scan; a forged proof is a security event.
    const before = await db
      .select()
      .from(schema.auditLog)
      .where(drizzle.eq(schema.auditLog.action, "member.card_refused"));
    const theirs = await send(
      [
        ["scan", scan.scan],
        ["materials", here[0] as string],
      ],
      stranger,
    );
    expect(theirs.status).toBe(403);
    const forged = `${scan.scan.slice(0, -3)}AAA`;
    expect(
      (
        await send([
          ["scan", forged],
          ["materials", here[0] as string],
        ])
      ).status,
    ).toBe(403);
    const after = await db
      .select()
      .from(schema.auditLog)
      .where(drizzle.eq(schema.auditLog.action, "member.card_refused"));
    expect(after.length).toBe(before.length + 2);
    expect(after.filter((a) => a.targetId === m.id)).toHaveLength(2);

    const cases: [string, [string, string][], string][] = [
      ["nothing ticked", [], "請至少勾選一件樣品"],
      ["a forged material id", [["materials", "no-such-material"]], "所選的建材在這間門市沒有樣品可借"],
      ["a mangled material id", [["materials", "../../etc"]], "所選的建材在這間門市沒有樣品可借"],
      ["a material without samples here", [["materials", elsewhereOnly]], "所選的建材在這間門市沒有樣品可借"],
      ["six at once", here.slice(0, 6).map((id) => ["materials", id] as [string, string]), "同時最多借用 5 件"],
    ];
    for (const [name, fields, message] of cases) {
      const res = await send([["scan", scan.scan], ...fields]);
      expect(res.status, name).toBeGreaterThanOrEqual(400);
      expect(res.status, name).toBeLessThan(500);
      const html = await res.text();
      expect(html.includes('id="materials-error"'), name).toBe(true);
      expect(html.includes(message), name).toBe(true);
    }
    expect(await rowsOf(m.id)).toHaveLength(0);

    // Three lent, then three more: the same limit refuses, the ticks kept, nothing stored.
    const first = await send([
      ["scan", scan.scan],
      ...here.slice(0, 3).map((id) => ["materials", id] as [string, string]),
    ]);
    expect(first.status).toBe(302);
    const over = await send([
      ["scan", scan.scan],
      ...here.slice(3, 6).map((id) => ["materials", id] as [string, string]),
    ]);
    expect(over.status).toBe(409);
    const html = await over.text();
    expect(html.includes("每位會員同時最多借用 5 件樣品")).toBe(true);
    expect(html).toMatch(new RegExp(`value="${here[3]}"[^>]*checked|checked[^>]*value="${here[3]}"`));
    expect(await rowsOf(m.id)).toHaveLength(3);
    // The same material again: told beside the boxes.
    const twice = await send([
      ["scan", scan.scan],
      ["materials", here[0] as string],
    ]);
    expect(twice.status).toBe(409);
    expect((await twice.text()).includes("這位會員已申請或正在借用其中的樣品")).toBe(true);
    // NUL bytes are removed before the form is read: what remains is a real loan (one place left).
    const nul = await send([
      ["scan", scan.scan],
      ["materials", `\u0000${here[4]}\u0000`],
    ]);
    expect(nul.status).toBeLessThan(500);
    expect((await rowsOf(m.id)).length).toBeLessThanOrEqual(4);
  });

  it("answers a NUL byte or a non-UUID in the path and a mangled proof in the query without a 500", async () => {
    const m = await testing.newMember(db, { nameZh: "趙路徑" });
    expect([400, 404]).toContain((await get("/admin/counter/member/%00/samples", clerk)).status);
    expect((await get("/admin/counter/member/not-a-uuid/samples", clerk)).status).toBe(404);
    expect([400, 404]).toContain((await post("/admin/counter/member/%00/samples", [["materials", "x"]], clerk)).status);
    expect([400, 404]).toContain((await get(`/admin/counter/member/${m.id}/samples?scan=%00`, clerk)).status);
    expect([400, 404]).toContain((await get(`/admin/counter/member/${m.id}?scan=%00%00`, clerk)).status);
    const mangled = await get(`/admin/counter/member/${m.id}/samples?scan=${"z".repeat(200)}`, clerk);
    expect(mangled.status).toBe(200);
    expect((await mangled.text()).includes("借出樣品前請先掃描會員卡")).toBe(true);
    // A visitor without a console session goes to the login.
    expect((await get(`/admin/counter/member/${m.id}/samples`, null)).status).toBe(302);
  });
});
