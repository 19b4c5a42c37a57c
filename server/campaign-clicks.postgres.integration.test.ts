import type { Database } from "@platform/db/client";
import type * as Schema from "@platform/db/schema";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as Campaigns from "../app/domain/member-messages/campaigns.server";
import type * as ClickLinks from "../app/domain/member-messages/click-links.server";
import type * as Delivery from "../app/domain/member-messages/delivery.server";
import { testAdminActor } from "../app/domain/staff/testing.server";
import { type DevApps, startDevApps } from "./testing/dev-app";

/**
 * Campaign click links over two instances on ONE PostgreSQL database (ADR 055): 20 clicks at once on one
 * member's link, spread over both instances, all redirect to the stored address and record ONE click; forged,
 * altered and NUL-carrying links are the 404 page on either instance, never a redirect and never a 500.
 * PostgreSQL only (PGlite is one process and cannot race).
 */
const HOOKS = "k".repeat(40);
let apps: DevApps;
let db: Database;
let schema: typeof Schema;
let delivery: typeof Delivery;
let campaigns: typeof Campaigns;
let links: typeof ClickLinks;

beforeAll(async () => {
  apps = await startDevApps(2, { APP_ENV: "test", TEST_HOOKS_SECRET: HOOKS }, { label: "campaign_clicks" });
  for (const instance of apps.instances) await instance.running.dispatcher.stop();
  const [first] = apps.instances;
  if (!first) throw new Error("no app instance");
  db = first.running.database.db;
  const load = (file: string) => apps.vite.ssrLoadModule(file);
  schema = (await load("/platform/db/schema/index.ts")) as typeof Schema;
  delivery = (await load("/app/domain/member-messages/delivery.server.ts")) as typeof Delivery;
  campaigns = (await load("/app/domain/member-messages/campaigns.server.ts")) as typeof Campaigns;
  links = (await load("/app/domain/member-messages/click-links.server.ts")) as typeof ClickLinks;
}, 240_000);

afterAll(() => apps?.stop());

const { actor: admin, audit } = testAdminActor("clicks-admin");
const TARGET = "https://shop.example.test/summer?from=mail";

describe("a campaign link clicked on two instances at once", () => {
  let token: string;
  let messageId: string;

  beforeAll(async () => {
    const base = apps.instances[0]?.base ?? "";
    const city = "金門縣";
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${base}/__test/members`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-test-hooks-secret": HOOKS },
        body: JSON.stringify({
          phoneNumber: `+8869${String(60_000_000 + (process.pid % 1000) * 100 + i).slice(-8)}`,
          city,
          email: `clicks-${process.pid}-${i}@example.test`,
          marketing: { email: true },
        }),
      });
      expect(res.status).toBe(200);
    }
    const at = new Date("2027-08-04T03:00:00Z"); // Wednesday 11:00 Taipei
    const draft = await campaigns.createCampaign(
      db,
      admin,
      {
        name: "夏季點擊",
        audience: { city },
        lineText: null,
        smsText: null,
        emailSubject: "夏季新品",
        emailBody: `新品看這裡：${TARGET}`,
      },
      audit,
      at,
    );
    await campaigns.scheduleCampaign(db, admin, draft.id, draft.version, null, audit, { lineOn: false }, at);
    const deps = apps.instances[0]?.running.delivery as Delivery.DeliveryDeps;
    await delivery.deliverDue(deps, new Date(at.getTime() + 60_000));
    const [row] = await db
      .select()
      .from(schema.memberMessage)
      .where(and(eq(schema.memberMessage.campaignId, draft.id), eq(schema.memberMessage.status, "sent")))
      .limit(1);
    messageId = row?.id as string;
    token = links.clickToken(deps.secret, messageId, 0);
  });

  it("redirects all 20 to the stored address and records one click", async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => fetch(`${apps.instances[i % 2]?.base}/r/${token}`, { redirect: "manual" })),
    );
    for (const a of answers) {
      expect(a.status).toBe(302);
      expect(a.headers.get("location")).toBe(TARGET);
      expect(a.headers.get("cache-control")).toContain("no-store");
    }
    const clicks = await db.select().from(schema.campaignClick).where(eq(schema.campaignClick.messageId, messageId));
    expect(clicks).toHaveLength(1);
  });

  it("answers a forged, altered or NUL-carrying link with the 404 page on either instance", async () => {
    const altered = `${token.slice(0, 8)}${token[8] === "A" ? "B" : "A"}${token.slice(9)}`;
    const forged = links.clickToken("f".repeat(40), messageId, 0);
    const paths = [
      `/r/${altered}`,
      `/r/${forged}`,
      `/r/${encodeURIComponent("https://evil.example/")}`,
      `/r/${token}x`,
    ];
    for (const [i, path] of paths.entries()) {
      const res = await fetch(`${apps.instances[i % 2]?.base}${path}`, { redirect: "manual" });
      expect(res.status, path).toBe(404);
      expect(res.headers.get("location"), path).toBeNull();
      expect(await res.text(), path).toContain("</html>");
    }
    // A NUL byte in the path is refused before any route (400, the server's bad-request answer), never a 500.
    const nul = await fetch(`${apps.instances[1]?.base}/r/${token.slice(0, 20)}%00${token.slice(21)}`, {
      redirect: "manual",
    });
    expect(nul.status).toBe(400);
    expect(nul.headers.get("location")).toBeNull();
    const clicks = await db.select().from(schema.campaignClick).where(eq(schema.campaignClick.messageId, messageId));
    expect(clicks).toHaveLength(1);
  });
});
