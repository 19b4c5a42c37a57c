import type { Database } from "@platform/db/client";
import type * as Schema from "@platform/db/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevApp, startDevApp } from "./testing/dev-app";

/**
 * The samples pages over HTTP (issue 37 part 3, ADR 046): the member's request form and its refusals beside the
 * fields (forged ids, NUL bytes, a store without samples, over the limit: 4xx, nothing stored, values kept), the
 * cancel of another member's request (404), and the console page: permission, the clerk's stores only, a forged
 * or mangled query string and forged ids in the step forms (4xx, never 500), a step audited.
 */
const HOOKS_SECRET = "samples-pages-test-hooks-secret-0123456789";
const STORE = "xinyi-flagship";
const LOCALE = "locale";

let app: DevApp;
let base: string;
let db: Database;
let schema: typeof Schema;
let drizzle: typeof import("drizzle-orm");
let materials: string[] = [];

async function hook(pathname: string, body: unknown) {
  const response = await fetch(`${base}/__test${pathname}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-test-hooks-secret": HOOKS_SECRET },
    body: JSON.stringify(body),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json();
}

const cookieOf = (setCookie: string[]) => setCookie.map((c) => c.split(";")[0]).join("; ");

async function member(phoneNumber: string) {
  const { userId, memberId } = (await hook("/members", { phoneNumber, name: "樣品會員" })) as {
    userId: string;
    memberId: string;
  };
  const { setCookie } = (await hook("/sessions", { userId })) as { setCookie: string[] };
  return { memberId, cookie: cookieOf(setCookie) };
}

async function staff(role: "staff" | "admin", storeIds: string[]) {
  const { setCookie } = (await hook("/staff", { role, storeIds })) as { setCookie: string[] };
  return cookieOf(setCookie);
}

function post(pathname: string, cookie: string, fields: [string, string][]) {
  return fetch(`${base}${pathname}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { origin: base, cookie, "content-type": "application/x-www-form-urlencoded" },
    redirect: "manual",
  });
}

const get = (pathname: string, cookie: string) =>
  fetch(`${base}${pathname}`, { headers: { cookie }, redirect: "manual" });

const requestsOf = async (memberId: string) =>
  db.select().from(schema.sampleRequest).where(drizzle.eq(schema.sampleRequest.memberId, memberId));

beforeAll(async () => {
  app = await startDevApp(
    { APP_ENV: "test", TEST_HOOKS_SECRET: HOOKS_SECRET, SEED_DEMO_CONTENT: "true" },
    "samples_pages",
  );
  base = app.base;
  db = app.running.database.db;
  schema = (await app.vite.ssrLoadModule("/platform/db/schema/index.ts")) as typeof Schema;
  drizzle = await import("drizzle-orm");
  materials = (
    await db
      .select({ id: schema.materialSampleStore.materialId })
      .from(schema.materialSampleStore)
      .innerJoin(schema.material, drizzle.eq(schema.material.id, schema.materialSampleStore.materialId))
      .where(
        drizzle.and(drizzle.eq(schema.materialSampleStore.storeId, STORE), drizzle.eq(schema.material.published, true)),
      )
  )
    .map((r) => r.id)
    .sort();
}, 240_000);

afterAll(async () => {
  await app?.stop();
});

describe("the member's request form", () => {
  it("asks for samples, keeps the values and says why beside the field when refused; nothing half-stored", async () => {
    const m = await member("+886912340101");
    // The member saved two materials first (the request starts from the favourites).
    for (const id of materials.slice(0, 3)) {
      expect((await post(`/material-detail/${id}`, m.cookie, [["intent", "save"]])).status).toBe(200);
    }
    const page = await get(`/member-center/samples/new?material=${materials[0]}`, m.cookie);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('name="materials"');

    const refusals: [string, [string, string][], string][] = [
      [
        "a forged material",
        [
          ["materials", "no-such-material"],
          ["storeId", STORE],
        ],
        "materials",
      ],
      [
        "NUL bytes",
        [
          ["materials", `\u0000${materials[0]}\u0000`],
          ["storeId", `\u0000${STORE}`],
        ],
        "",
      ],
      [
        "a forged store",
        [
          ["materials", materials[0] as string],
          ["storeId", "nowhere"],
        ],
        "storeId",
      ],
      ["no store", [["materials", materials[0] as string]], "storeId"],
      ["nothing ticked", [["storeId", STORE]], "materials"],
      [
        "six at once",
        [...materials.slice(0, 6).map((id) => ["materials", id] as [string, string]), ["storeId", STORE]],
        "materials",
      ],
    ];
    for (const [name, fields, field] of refusals) {
      const res = await post("/member-center/samples/new", m.cookie, fields);
      // NUL bytes are removed before the form is read: what remains is a real request, answered as one.
      if (name === "NUL bytes") {
        expect(res.status, name).toBeLessThan(500);
        continue;
      }
      expect(res.status, name).toBeGreaterThanOrEqual(400);
      expect(res.status, name).toBeLessThan(500);
      const html = await res.text();
      expect(html, name).toContain(`id="${field}-error"`);
    }
    // Only the NUL-byte request (cleaned) could store anything: one row at most.
    expect((await requestsOf(m.memberId)).length).toBeLessThanOrEqual(1);

    const ok = await post("/member-center/samples/new", m.cookie, [
      ["materials", materials[1] as string],
      ["materials", materials[2] as string],
      ["storeId", STORE],
    ]);
    expect(ok.status).toBe(302);
    expect(ok.headers.get("location")).toBe("/member-center/samples");
    const list = await get("/member-center/samples", m.cookie);
    expect(list.status).toBe(200);
  });

  it("cancels only the member's own request: a forged or another member's id is a 4xx", async () => {
    const a = await member("+886912340102");
    const b = await member("+886912340103");
    await post("/member-center/samples/new", a.cookie, [
      ["materials", materials[3] as string],
      ["storeId", STORE],
    ]);
    const [row] = await requestsOf(a.memberId);
    expect(row).toBeDefined();
    const id = row?.id as string;
    expect(
      (
        await post("/member-center/samples", b.cookie, [
          ["intent", "cancel"],
          ["id", id],
        ])
      ).status,
    ).toBe(404);
    expect(
      (
        await post("/member-center/samples", a.cookie, [
          ["intent", "cancel"],
          ["id", "not-a-uuid"],
        ])
      ).status,
    ).toBe(400);
    expect(
      (
        await post("/member-center/samples", a.cookie, [
          ["intent", "cancel"],
          ["id", `${id}\u0000`],
        ])
      ).status,
    ).toBe(302);
    expect((await requestsOf(a.memberId))[0]?.status).toBe("cancelled");
  });
});

describe("the console's samples page", () => {
  it("needs the permission, shows a clerk only their stores, refuses forged ids with a 4xx, audits a step", async () => {
    const m = await member("+886912340104");
    await post("/member-center/samples/new", m.cookie, [
      ["materials", materials[4] as string],
      ["storeId", STORE],
    ]);
    const [row] = await requestsOf(m.memberId);
    const id = row?.id as string;
    // A member has no console.
    expect((await get("/admin/samples", m.cookie)).status).toBe(302);
    const clerk = await staff("staff", [STORE]);
    const other = await staff("staff", ["banqiao"]);
    const mine = await get(`/admin/samples?member=${m.memberId}`, clerk);
    expect(mine.status).toBe(200);
    expect(await mine.text()).toContain('data-testid="sample-row"');
    const theirs = await get(`/admin/samples?member=${m.memberId}&store=${STORE}`, other);
    expect(theirs.status).toBe(200);
    expect(await theirs.text()).not.toContain('data-testid="sample-row"');
    // A mangled query string still shows a list.
    for (const query of [
      "?status=%00",
      "?store=nowhere&status=bogus",
      "?member=not-a-uuid",
      `?member=${"x".repeat(500)}`,
    ]) {
      expect((await get(`/admin/samples${query}`, clerk)).status, query).toBeLessThan(500);
    }
    // Another store's clerk: 403, nothing changed.
    expect(
      (
        await post("/admin/samples", other, [
          ["intent", "ready"],
          ["id", id],
        ])
      ).status,
    ).toBe(403);
    for (const fields of [
      [
        ["intent", "ready"],
        ["id", "00000000-0000-4000-8000-000000000000"],
      ],
      [
        ["intent", "ready"],
        ["id", "forged"],
      ],
      [
        ["intent", "teleport"],
        ["id", id],
      ],
      [["intent", "ready"]],
      [
        ["intent", "\u0000ready"],
        ["id", `\u0000${id}`],
      ],
    ] as [string, string][][]) {
      const res = await post("/admin/samples", clerk, fields);
      expect(res.status, JSON.stringify(fields)).toBeLessThan(500);
    }
    // The NUL-byte form was cleaned to a real "ready": marked once; pressing again is a 409.
    const after = (await requestsOf(m.memberId))[0];
    expect(after?.status).toBe("ready");
    expect(
      (
        await post("/admin/samples", clerk, [
          ["intent", "ready"],
          ["id", id],
        ])
      ).status,
    ).toBe(409);
    const handed = await post("/admin/samples", clerk, [
      ["intent", "hand_out"],
      ["id", id],
    ]);
    expect(handed.status).toBe(302);
    const audits = await db.select().from(schema.auditLog).where(drizzle.eq(schema.auditLog.targetId, id));
    expect(audits.map((a) => a.action).sort()).toEqual(["sample.handed_out", "sample.ready"]);

    // Two weeks and a day later (its due day moved back here): overdue on the member's console page, the
    // console's overdue filter and the member's own page, in both languages.
    await db
      .update(schema.sampleRequest)
      .set({ dueBackOn: "2026-01-05" })
      .where(drizzle.eq(schema.sampleRequest.id, id));
    const memberPage = await (await get(`/admin/members/${m.memberId}`, clerk)).text();
    expect(memberPage).toContain('data-testid="overdue-samples"');
    expect(memberPage).toContain("應於 2026/01/05 歸還");
    expect(await (await get(`/admin/members/${m.memberId}`, other)).text()).not.toContain("overdue-samples");
    expect(await (await get("/admin/samples?status=overdue", clerk)).text()).toContain("已逾期");
    expect(await (await get("/member-center/samples", m.cookie)).text()).toContain("已逾期：應於 2026/01/05 歸還");
    const english = await (await get("/member-center/samples", `${m.cookie}; ${LOCALE}=en`)).text();
    expect(english).toContain("Overdue: due back on 01/05/2026");
    expect(await (await get("/admin/samples?status=overdue", `${clerk}; ${LOCALE}=en`)).text()).toContain("Overdue");
  });
});
