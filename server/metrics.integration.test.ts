import { insertTestStores } from "@platform/testing/stores";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as LoyaltyTestingModule from "../app/domain/loyalty/testing.server";
import type * as ApiKeysModule from "../app/domain/pos/api-keys.server";
import { type AppInstance, type DevServer, startDevServer } from "./testing/dev-app";

/**
 * /metrics scraped from the real app: 404 without METRICS_TOKEN, 401 without (or with a wrong)
 * bearer token, and with it the Prometheus text with requests labelled by route id, never by URL.
 */
const TOKEN = "metrics-token-for-the-test-0123456789abcdef";
let dev: DevServer;
let createApiKey: typeof ApiKeysModule.createApiKey;
let newMember: typeof LoyaltyTestingModule.newMember;
let withoutToken: AppInstance;
let withToken: AppInstance;

beforeAll(async () => {
  dev = await startDevServer();
  ({ createApiKey } = (await dev.vite.ssrLoadModule("/app/domain/pos/api-keys.server.ts")) as typeof ApiKeysModule);
  ({ newMember } = (await dev.vite.ssrLoadModule(
    "/app/domain/loyalty/testing.server.ts",
  )) as typeof LoyaltyTestingModule);
  // Started here, not in the tests: the first start transforms the whole app (slow on a busy machine).
  withoutToken = await dev.serve({ APP_ENV: "test" }, { label: "metrics" });
  withToken = await dev.serve({ APP_ENV: "test", METRICS_TOKEN: TOKEN }, { label: "metrics" });
}, 180_000);

afterAll(() => dev?.close());

/**
 * The sum of the sample lines with these labels (e.g. `name{a="b"} 3`), or null when there is none. The registry is
 * the process's, and the files a test worker runs share it (and the app's modules): compare before and after.
 */
function sample(text: string, name: string, labels: Record<string, string>): number | null {
  let sum: number | null = null;
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`)) continue;
    const body = line.slice(name.length + 1, line.lastIndexOf("}"));
    if (Object.entries(labels).every(([k, v]) => body.includes(`${k}="${v}"`))) {
      sum = (sum ?? 0) + Number(line.split(" ").at(-1));
    }
  }
  return sum;
}

describe("/metrics", () => {
  it("answers 404 when no METRICS_TOKEN is configured", async () => {
    const { base } = withoutToken;
    const response = await fetch(`${base}/metrics`);
    expect(response.status).toBe(404);
  });

  it("needs the bearer token, and labels requests by route id, never by URL", { timeout: 120_000 }, async () => {
    const { base, running } = withToken;
    expect((await fetch(`${base}/metrics`)).status).toBe(401);
    const wrong = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN.replace(/.$/, "x")}` } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');

    const scrape = async () =>
      (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    const before = await scrape();
    // Traffic: a page, a page with an id in its URL, its data request, a failed login, a POS call. Each
    // body is read to the end: a request is counted when its answer has finished.
    const page = await fetch(`${base}/`);
    expect(page.status).toBe(200);
    await page.text();
    await (await fetch(`${base}/material-detail/no-such-material-4711`)).text();
    await (await fetch(`${base}/materials.data`)).text();
    const login = await fetch(`${base}/member-login`, {
      method: "POST",
      body: new URLSearchParams({ method: "phone", phone: "0911-111-111", password: "wrong-password-1" }),
      headers: { origin: base },
      redirect: "manual",
    });
    expect(login.status).toBe(401);
    await login.text();
    await insertTestStores(running.database.db, ["TPE01"]);
    const { key, secret } = await createApiKey(running.database.db, { storeId: "TPE01", name: "metrics test" });
    const pos = await fetch(`${base}/api/v1/members/HL99999999/balance`, {
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(pos.status).toBe(404);
    await pos.text();

    const response = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    const requests = "hanliving_http_request_duration_seconds_count";
    const grew = (labels: Record<string, string>) =>
      (sample(text, requests, labels) ?? 0) - (sample(before, requests, labels) ?? 0);
    expect(grew({ route: "routes/home", method: "GET", status: "200" })).toBe(1);
    expect(grew({ route: "routes/material-detail", method: "GET" })).toBe(1);
    expect(grew({ route: "routes/materials", method: "GET" })).toBe(1);
    expect(grew({ route: "routes/member-login", method: "POST", status: "401" })).toBe(1);
    expect(grew({ route: "/api/v1/members/:memberNumber/balance", status: "404" })).toBe(1);
    expect(text).not.toContain("no-such-material-4711");
    expect(text).not.toContain("HL99999999");
    expect(sample(text, "hanliving_login_failures_total", { reason: "invalid" })).toBeGreaterThanOrEqual(1);
    expect(sample(text, "hanliving_pos_requests_total", { key_id: key.id })).toBe(1);
    expect(text).not.toContain(secret);
    expect(sample(text, "hanliving_db_up", {}) ?? Number(/^hanliving_db_up (\d+)/m.exec(text)?.[1])).toBe(1);
    expect(text).toContain("# TYPE hanliving_job_queue_jobs gauge");
    expect(text).toContain("hanliving_process_cpu_seconds_total");
    if (running.database.driver === "postgres") {
      expect(sample(text, "hanliving_db_pool_connections", { state: "max" })).toBe(
        running.config.database.kind === "postgres" ? running.config.database.poolMax : 0,
      );
      expect(sample(text, "hanliving_db_query_duration_seconds_count", { outcome: "ok" })).toBeGreaterThan(10);
    }
  });

  it("counts ledger entries, idempotent replays, messages, jobs and limit refusals", { timeout: 120_000 }, async () => {
    const { base, running } = withToken;
    const scrape = async () =>
      (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    const before = await scrape();
    const value = (text: string, name: string, labels: Record<string, string>) => sample(text, name, labels) ?? 0;

    // A purchase booked, then the same request again (answered from the first: a replay).
    await insertTestStores(running.database.db, ["TPE02"]);
    const { secret } = await createApiKey(running.database.db, { storeId: "TPE02", name: "metrics ledger" });
    const buyer = await newMember(running.database.db);
    const purchase = () =>
      fetch(`${base}/api/v1/purchases`, {
        method: "POST",
        body: JSON.stringify({ memberNumber: buyer.memberNumber, receiptNumber: "M-1", netAmount: 1200 }),
        headers: {
          "content-type": "application/json",
          authorization: `Bearer ${secret}`,
          "idempotency-key": "metrics-purchase-1",
        },
      });
    const first = await purchase();
    expect(first.status).toBe(201);
    await first.text();
    const replay = await purchase();
    expect(replay.status).toBe(201);
    await replay.text();

    // A text message through the job queue and the SMS outbox.
    await running.messaging.messaging.sendSms({ to: "+886912000111", text: "metrics test 123456" });

    // Wrong passwords for one number until its limit refuses.
    for (let i = 0; i < 7; i++) {
      const login = await fetch(`${base}/member-login`, {
        method: "POST",
        body: new URLSearchParams({ method: "phone", phone: "0933-222-111", password: `wrong-password-${i}` }),
        headers: { origin: base },
        redirect: "manual",
      });
      await login.text();
    }

    // The SMS job runs on the queue: wait (bounded) until it has been counted.
    let after = await scrape();
    for (
      let i = 0;
      i < 60 &&
      value(after, "hanliving_messages_total", { channel: "sms", result: "sent" }) <=
        value(before, "hanliving_messages_total", { channel: "sms", result: "sent" });
      i++
    ) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      after = await scrape();
    }
    const grew = (name: string, labels: Record<string, string>) =>
      value(after, name, labels) - value(before, name, labels);
    expect(grew("hanliving_ledger_entries_total", { kind: "earn-purchase" })).toBeGreaterThanOrEqual(1);
    expect(grew("hanliving_ledger_replays_total", {})).toBeGreaterThanOrEqual(1);
    // The replay is answered before the endpoint, and still counted under it (the POS alerts select by route).
    const purchases = { route: "/api/v1/purchases", method: "POST", status: "201" };
    expect(grew("hanliving_http_request_duration_seconds_count", purchases)).toBe(2);
    expect(value(after, "hanliving_http_request_duration_seconds_count", { route: "static", method: "POST" })).toBe(0);
    expect(grew("hanliving_messages_total", { channel: "sms", result: "sent" })).toBe(1);
    expect(grew("hanliving_jobs_total", { queue: "messaging.sms", result: "completed" })).toBe(1);
    expect(grew("hanliving_login_failures_total", { reason: "rate_limited" })).toBeGreaterThanOrEqual(1);
    const refusals = after
      .split("\n")
      .filter((line) => line.startsWith("hanliving_rate_limit_refusals_total{"))
      .reduce((sum, line) => sum + Number(line.split(" ").at(-1)), 0);
    expect(refusals).toBeGreaterThanOrEqual(1);
    expect(after).not.toContain("0933222111");
  });
});
