import { type FakeTwilio, startFakeTwilio } from "@platform/testing/fake-twilio";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DeliveryError } from "./errors";
import { twilioSmsProvider } from "./sms-twilio.server";

const ACCOUNT_SID = "AC0123456789abcdef0123456789abcdef";
const AUTH_TOKEN = "twilio-auth-token";
const SERVICE_SID = "MGfedcba9876543210fedcba9876543210";
const KEY = "5f8b1c0e-0000-4000-8000-000000000001";
// base64("AC0123456789abcdef0123456789abcdef:twilio-auth-token"), written out.
const BASIC = "Basic QUMwMTIzNDU2Nzg5YWJjZGVmMDEyMzQ1Njc4OWFiY2RlZjp0d2lsaW8tYXV0aC10b2tlbg==";

let fake: FakeTwilio;

beforeEach(async () => {
  fake = await startFakeTwilio({ accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN });
});

afterEach(async () => {
  await fake.close();
});

function provider(overrides: Partial<Parameters<typeof twilioSmsProvider>[0]> = {}) {
  return twilioSmsProvider({
    baseUrl: fake.url,
    accountSid: ACCOUNT_SID,
    authToken: AUTH_TOKEN,
    messagingServiceSid: SERVICE_SID,
    ...overrides,
  });
}

async function deliveryError(promise: Promise<unknown>): Promise<DeliveryError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DeliveryError);
  return error as DeliveryError;
}

describe("the Twilio adapter", () => {
  it("creates a Message exactly as Twilio expects it, byte for byte", async () => {
    const receipt = await provider().send({
      to: "+886912345678",
      text: "【漢生活】Your code is 123456",
      idempotencyKey: KEY,
    });
    expect(receipt.providerMessageId).toMatch(/^SM[0-9a-f]{32}$/);
    expect(receipt.providerMessageId).toBe(fake.accepted[0]?.sid);

    expect(fake.requests).toHaveLength(1);
    const request = fake.requests[0]!;
    expect(request.method).toBe("POST");
    expect(request.url).toBe(`/2010-04-01/Accounts/${ACCOUNT_SID}/Messages.json`);
    expect(request.headers.authorization).toBe(BASIC);
    expect(request.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(request.headers.accept).toBe("application/json");
    const expected =
      `To=%2B886912345678&MessagingServiceSid=${SERVICE_SID}` +
      "&Body=%E3%80%90%E6%BC%A2%E7%94%9F%E6%B4%BB%E3%80%91Your+code+is+123456";
    expect(request.body.equals(Buffer.from(expected, "ascii"))).toBe(true);

    expect(fake.accepted).toEqual([
      {
        sid: receipt.providerMessageId,
        to: "+886912345678",
        from: null,
        messagingServiceSid: SERVICE_SID,
        body: "【漢生活】Your code is 123456",
      },
    ]);
  });

  it("sends from a number when there is no Messaging Service, to any country", async () => {
    await provider({ messagingServiceSid: null, from: "+15005550006" }).send({
      to: "+819012345678",
      text: "【漢生活】テスト",
      idempotencyKey: KEY,
    });
    const body = fake.requests[0]?.body.toString("ascii");
    expect(body).toBe(
      "To=%2B819012345678&From=%2B15005550006&Body=%E3%80%90%E6%BC%A2%E7%94%9F%E6%B4%BB%E3%80%91%E3%83%86%E3%82%B9%E3%83%88",
    );
    expect(fake.accepted[0]).toMatchObject({ to: "+819012345678", from: "+15005550006" });
  });

  it("needs a sender", () => {
    expect(() => provider({ messagingServiceSid: null, from: null })).toThrow(/Messaging Service SID or a From/);
  });

  it("maps bad credentials (401, 20003) to a permanent failure", async () => {
    const error = await deliveryError(
      provider({ authToken: "wrong" }).send({ to: "+886912345678", text: "【漢生活】x", idempotencyKey: KEY }),
    );
    expect(error).toMatchObject({ provider: "twilio", permanent: true, status: 401, code: "20003" });
    expect(error.message).toContain("Authentication Error");
  });

  it("maps an invalid number (400, 21211) to a permanent failure", async () => {
    const error = await deliveryError(provider().send({ to: "+1", text: "【漢生活】x", idempotencyKey: KEY }));
    expect(error).toMatchObject({ permanent: true, status: 400, code: "21211" });
    expect(fake.accepted).toEqual([]);
  });

  it("maps 429 (20429) and 500 to retryable failures", async () => {
    fake.fail("rate-limited", "server-error");
    const sms = { to: "+886912345678", text: "【漢生活】x", idempotencyKey: KEY };
    expect(await deliveryError(provider().send(sms))).toMatchObject({ retryable: true, status: 429, code: "20429" });
    expect(await deliveryError(provider().send(sms))).toMatchObject({ retryable: true, status: 500, code: "20500" });
    await provider().send(sms);
    expect(fake.accepted).toHaveLength(1);
  });

  it("maps a closed port to a retryable failure", async () => {
    const url = fake.url;
    await fake.close();
    const error = await deliveryError(
      provider({ baseUrl: url }).send({ to: "+886912345678", text: "【漢生活】x", idempotencyKey: KEY }),
    );
    expect(error.retryable).toBe(true);
    fake = await startFakeTwilio({ accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN });
  });
});
