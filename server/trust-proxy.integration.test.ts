import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaptchaChallenge } from "../app/domain/auth/captcha.server";
import { CODE_POLICY } from "../app/domain/auth/one-time-codes.server";
import { type DevApp, startDevApp } from "./testing/dev-app";

/**
 * TRUST_PROXY (issue 11, item 3): behind the proxy the client address is the one the trusted proxy
 * saw, whatever the client writes in X-Forwarded-For. A client that forges a new address on every
 * sign-up code request is still one client to the per-IP limit.
 */
const apps: DevApp[] = [];

afterAll(async () => {
  for (const app of apps) await app.stop();
});

/** Solves an ALTCHA challenge as the page's worker does (app/lib/captcha.worker.ts). */
async function solvedCaptcha(secret: string): Promise<string> {
  const challenge = await createCaptchaChallenge(secret);
  const max = challenge.maxnumber ?? 1_000_000;
  for (let n = 0; n <= max; n++) {
    if (createHash("sha256").update(`${challenge.salt}${n}`).digest("hex") === challenge.challenge) {
      const { algorithm, salt, signature } = challenge;
      return Buffer.from(
        JSON.stringify({ algorithm, challenge: challenge.challenge, number: n, salt, signature }),
      ).toString("base64");
    }
  }
  throw new Error("challenge not solved");
}

let phoneCounter = 0;
function nextPhone(): string {
  phoneCounter += 1;
  return `09${String(55_000_000 + phoneCounter).padStart(8, "0")}`;
}

async function sendSignupCode(app: DevApp, forwardedFor: string): Promise<number> {
  const response = await fetch(`${app.base}/signup/phone-verification`, {
    method: "POST",
    headers: {
      origin: app.base,
      "content-type": "application/x-www-form-urlencoded",
      "x-forwarded-for": forwardedFor,
    },
    body: new URLSearchParams({
      intent: "send",
      phone: nextPhone(),
      consent: "on",
      altcha: await solvedCaptcha(app.running.config.secrets.session),
    }),
    redirect: "manual",
  });
  await response.body?.cancel();
  return response.status;
}

describe.each([
  ["a hop count", "1"],
  ["the proxy's address", "127.0.0.1"],
])("TRUST_PROXY as %s (%s)", (_label, trustProxy) => {
  let app: DevApp;
  beforeAll(async () => {
    app = await startDevApp({ APP_ENV: "test", TRUST_PROXY: trustProxy }, "trust_proxy");
    apps.push(app);
  });

  it("limits 15 sign-up code sends with forged X-Forwarded-For per real client", { timeout: 120_000 }, async () => {
    // What the proxy (this test, on 127.0.0.1) forwards: the client's forged entries, then the
    // address the proxy saw (198.51.100.7) appended last.
    const statuses: number[] = [];
    for (let n = 1; n <= 15; n++) statuses.push(await sendSignupCode(app, `203.0.113.${n}, 198.51.100.7`));
    const limit = CODE_POLICY.perIp.hour;
    expect(statuses.filter((s) => s === 302)).toHaveLength(limit);
    expect(statuses.slice(limit)).toEqual(Array(15 - limit).fill(429));

    // Another real client behind the same proxy is not held back by the first one.
    expect(await sendSignupCode(app, "203.0.113.1, 198.51.100.8")).toBe(302);
  });
});
