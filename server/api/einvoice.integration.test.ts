import type { DatabaseHandle } from "@platform/db/client";
import { auditLog, memberConsent } from "@platform/db/schema";
import { and, asc, desc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type AuditContext, verifyAuditChain } from "../../app/domain/audit/audit.server";
import { EINVOICE_SHARING_VERSION, setEinvoiceSharing } from "../../app/domain/einvoice/einvoice.server";
import { issueCardToken } from "../../app/domain/loyalty/card-tokens.server";
import { newMember } from "../../app/domain/loyalty/testing.server";
import { createApiKeyInConsole, setApiKeyScopesInConsole } from "../../app/domain/pos/api-keys.server";
import type { StaffActor } from "../../app/domain/staff/actor";
import { serveApiV1ForTests } from "./api-v1-rig.testing";

/**
 * The e-invoice carrier lookup (issue 36 item 2, ADR 041): the `einvoice:read` scope (403 `scope_missing`,
 * audited), every answer audited with the key, the store and the member, the member's switch, bad input as 4xx.
 */
let CARD_SECRET: string;
let database: DatabaseHandle;
let base: string;
let plain: { id: string; secret: string };
let scoped: { id: string; secret: string };

const admin: StaffActor = {
  userId: "admin-einvoice-test",
  role: "admin",
  displayName: "Admin",
  storeIds: [],
  currentStoreId: null,
  sessionId: "s-1",
  secondFactorAt: new Date(),
};
const adminAudit: AuditContext = {
  actorType: "staff",
  userId: admin.userId,
  role: "admin",
  storeId: null,
  ip: "10.0.0.1",
  userAgent: "test",
  requestId: null,
};

serveApiV1ForTests("api_einvoice", async (rig) => {
  ({ database, base, cardSecret: CARD_SECRET } = rig);
  plain = { id: rig.storeKeyId, secret: rig.storeKey };
  const b = await createApiKeyInConsole(
    database.db,
    admin,
    { storeId: "TXG01", name: "Taichung till", scopes: ["einvoice:read"] },
    adminAudit,
  );
  scoped = { id: b.key.id, secret: b.secret };
});

async function get(query: string, secret: string) {
  const res = await fetch(`${base}/members/einvoice${query}`, {
    headers: { authorization: `Bearer ${secret}`, "user-agent": "HanPOS/3.1" },
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function lastAudit() {
  const [row] = await database.db.select().from(auditLog).orderBy(desc(auditLog.pos)).limit(1);
  return row;
}

const withCarrier = () =>
  newMember(database.db, {
    einvoiceCarrier: "/ABC+123",
    taxIdNumber: "04595257",
    companyName: "漢生活股份有限公司",
  });

describe("GET /members/einvoice", () => {
  it("refuses a key without the einvoice:read scope with 403 scope_missing, audited, and shows nothing", async () => {
    const m = await withCarrier();
    const before = await lastAudit();
    const answer = await get(`?memberNumber=${m.memberNumber}`, plain.secret);
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ error: { code: "scope_missing", message: expect.any(String) } });
    expect(JSON.stringify(answer.body)).not.toContain("ABC");
    const row = await lastAudit();
    expect(row?.pos).toBeGreaterThan(before?.pos ?? 0);
    expect(row).toMatchObject({
      action: "api_key.scope_refused",
      actorType: "api_key",
      apiKeyId: plain.id,
      storeId: "TPE01",
      targetType: "api_key",
      targetId: plain.id,
      userAgent: "HanPOS/3.1",
    });
    expect(row?.changes).toMatchObject({ scope: { after: "einvoice:read" }, endpoint: { after: "/members/einvoice" } });
    // Refused before the query is read: a bad query from a key without the scope is still 403.
    expect((await get("?memberNumber=%00", plain.secret)).status).toBe(403);
  });

  it("answers the carrier, 統編 and company by member number and by card token, each read audited", async () => {
    const m = await withCarrier();
    const byNumber = await get(`?memberNumber=${m.memberNumber.toLowerCase()}`, scoped.secret);
    expect(byNumber).toEqual({
      status: 200,
      body: {
        memberNumber: m.memberNumber,
        sharing: true,
        carrier: "/ABC+123",
        taxIdNumber: "04595257",
        companyName: "漢生活股份有限公司",
      },
    });
    const row = await lastAudit();
    expect(row).toMatchObject({
      action: "member.einvoice_read",
      actorType: "api_key",
      apiKeyId: scoped.id,
      storeId: "TXG01",
      targetType: "member",
      targetId: m.id,
    });
    expect(row?.changes).toEqual({
      via: { before: null, after: "api" },
      sharing: { before: null, after: true },
      fieldsShown: { before: null, after: ["einvoiceCarrier", "taxIdNumber", "companyName"] },
    });
    // The values themselves never reach the log.
    expect(JSON.stringify(row)).not.toContain("ABC+123");

    const { token } = issueCardToken(CARD_SECRET, m.id);
    const byCard = await get(`?cardToken=${encodeURIComponent(token)}`, scoped.secret);
    expect(byCard.status).toBe(200);
    expect(byCard.body.carrier).toBe("/ABC+123");
    expect((await lastAudit())?.pos).toBeGreaterThan(row?.pos ?? 0);
  });

  it("answers sharing: false with nulls when the member turned sharing off, and audits that read too", async () => {
    const m = await withCarrier();
    expect(await setEinvoiceSharing(database.db, { memberId: m.id, sharing: false, ip: "192.0.2.9" })).toBe(true);
    // Saving the same state again changes nothing and records nothing.
    expect(await setEinvoiceSharing(database.db, { memberId: m.id, sharing: false, ip: "192.0.2.9" })).toBe(false);
    const answer = await get(`?memberNumber=${m.memberNumber}`, scoped.secret);
    expect(answer).toEqual({
      status: 200,
      body: { memberNumber: m.memberNumber, sharing: false, carrier: null, taxIdNumber: null, companyName: null },
    });
    const row = await lastAudit();
    expect(row).toMatchObject({ action: "member.einvoice_read", targetId: m.id });
    expect(row?.changes).toMatchObject({ sharing: { after: false }, fieldsShown: { after: [] } });
    await setEinvoiceSharing(database.db, { memberId: m.id, sharing: true, ip: null });
    expect((await get(`?memberNumber=${m.memberNumber}`, scoped.secret)).body.carrier).toBe("/ABC+123");
    // Each change is a consent row with the wording's version, the source and the address (ADR 041).
    const consents = await database.db
      .select()
      .from(memberConsent)
      .where(and(eq(memberConsent.userId, m.userId), eq(memberConsent.kind, "einvoice_sharing")))
      .orderBy(asc(memberConsent.createdAt));
    expect(consents.map((c) => [c.granted, c.version, c.source, c.ipAddress])).toEqual([
      [false, EINVOICE_SHARING_VERSION, "member-center", "192.0.2.9"],
      [true, EINVOICE_SHARING_VERSION, "member-center", null],
    ]);
  });

  it("shows only well-formed values: no 統編 → no company; a malformed stored carrier → null", async () => {
    const m = await newMember(database.db, { einvoiceCarrier: "/abc", taxIdNumber: "12345678", companyName: "X" });
    const answer = await get(`?memberNumber=${m.memberNumber}`, scoped.secret);
    expect(answer.body).toMatchObject({ sharing: true, carrier: null, taxIdNumber: null, companyName: null });
  });

  it("answers bad input with a 4xx and a stable code, never a 500", async () => {
    const m = await withCarrier();
    const disabled = await newMember(database.db, { disabled: true, einvoiceCarrier: "/ABC+123" });
    const cases: Array<[string, number, string]> = [
      ["", 400, "invalid_query"],
      ["?memberNumber=HL1%00", 400, "invalid_query"],
      ["?memberNumber=%00", 400, "invalid_query"],
      [`?memberNumber=${m.memberNumber}&cardToken=abc`, 400, "invalid_query"],
      [`?memberNumber=${m.memberNumber}&memberNumber=HL2`, 400, "invalid_query"],
      [`?phone=0912345678`, 400, "invalid_query"],
      [`?memberNumber=${"9".repeat(21)}`, 400, "invalid_query"],
      ["?memberNumber=HL00000000", 404, "member_not_found"],
      ["?memberNumber=%F0%9F%92%A9", 404, "member_not_found"],
      ["?cardToken=not-a-token", 422, "card_token_malformed"],
      [`?memberNumber=${disabled.memberNumber}`, 422, "member_disabled"],
    ];
    for (const [query, status, code] of cases) {
      const answer = await get(query, scoped.secret);
      expect({ query, status: answer.status, code: (answer.body.error as { code: string })?.code }).toEqual({
        query,
        status,
        code,
      });
    }
    expect((await fetch(`${base}/members/einvoice?memberNumber=${m.memberNumber}`)).status).toBe(401);
  });

  it("lets an admin grant and remove the scope, audited, effective at the next request", async () => {
    const m = await withCarrier();
    expect(await setApiKeyScopesInConsole(database.db, admin, plain.id, ["einvoice:read"], adminAudit)).toBe(true);
    const granted = await lastAudit();
    expect(granted).toMatchObject({ action: "api_key.scopes_changed", targetId: plain.id, actorType: "staff" });
    expect(granted?.changes).toEqual({ scopes: { before: [], after: ["einvoice:read"] } });
    expect((await get(`?memberNumber=${m.memberNumber}`, plain.secret)).status).toBe(200);
    // The same scopes again change and log nothing.
    expect(await setApiKeyScopesInConsole(database.db, admin, plain.id, ["einvoice:read"], adminAudit)).toBe(true);
    expect((await lastAudit())?.action).toBe("member.einvoice_read");
    expect(await setApiKeyScopesInConsole(database.db, admin, plain.id, [], adminAudit)).toBe(true);
    expect((await get(`?memberNumber=${m.memberNumber}`, plain.secret)).status).toBe(403);
    // The existing endpoints need no scope.
    const balance = await fetch(`${base}/members/${m.memberNumber}/balance`, {
      headers: { authorization: `Bearer ${plain.secret}` },
    });
    expect(balance.status).toBe(200);
    expect(await setApiKeyScopesInConsole(database.db, admin, "not-a-uuid", [], adminAudit)).toBe(false);
    const staff: StaffActor = { ...admin, role: "staff", storeIds: ["TPE01"] };
    await expect(
      setApiKeyScopesInConsole(database.db, staff, plain.id, ["einvoice:read"], adminAudit),
    ).rejects.toThrow();
  });

  it("keeps the audit chain whole", async () => {
    expect(await verifyAuditChain(database.db)).toMatchObject({ ok: true });
  });
});
