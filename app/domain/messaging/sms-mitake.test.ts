import { type FakeMitake, startFakeMitake } from "@platform/testing/fake-mitake";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DeliveryError } from "./errors";
import { decodeMitakeResponse, mitakeSmsProvider, parseMitakeResponse } from "./sms-mitake.server";

const CREDENTIALS = { username: "hanliving", password: "p@ss word&1" };
const KEY = "0b4cbf3e-5e51-4d6e-9a43-3c2f0b0a9e11";

let fake: FakeMitake;

beforeEach(async () => {
  fake = await startFakeMitake(CREDENTIALS);
});

afterEach(async () => {
  await fake.close();
});

function provider(overrides: Partial<typeof CREDENTIALS> = {}) {
  return mitakeSmsProvider({ baseUrl: fake.url, ...CREDENTIALS, ...overrides });
}

async function deliveryError(promise: Promise<unknown>): Promise<DeliveryError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DeliveryError);
  return error as DeliveryError;
}

describe("the Mitake adapter", () => {
  it("sends SmSend exactly as Mitake expects it, byte for byte", async () => {
    const receipt = await provider().send({
      to: "+886912345678",
      text: "【漢生活】驗證碼 123456，5 分鐘內有效。\n請勿提供給任何人。",
      idempotencyKey: KEY,
    });
    expect(receipt).toEqual({ providerMessageId: "1010079522" });

    expect(fake.requests).toHaveLength(1);
    const request = fake.requests[0]!;
    expect(request.method).toBe("POST");
    expect(request.url).toBe("/api/mtk/SmSend?CharsetURL=UTF8");
    expect(request.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    const expected =
      "username=hanliving&password=p%40ss+word%261&dstaddr=0912345678" +
      "&smbody=%E3%80%90%E6%BC%A2%E7%94%9F%E6%B4%BB%E3%80%91%E9%A9%97%E8%AD%89%E7%A2%BC+123456%EF%BC%8C5+" +
      "%E5%88%86%E9%90%98%E5%85%A7%E6%9C%89%E6%95%88%E3%80%82%06%E8%AB%8B%E5%8B%BF%E6%8F%90%E4%BE%9B%E7%B5%A6" +
      "%E4%BB%BB%E4%BD%95%E4%BA%BA%E3%80%82" +
      `&clientid=${KEY}`;
    expect(request.body.equals(Buffer.from(expected, "ascii"))).toBe(true);
    expect(request.headers["content-length"]).toBe(String(expected.length));

    // What Mitake took: the national number, the line break as ASCII 6.
    expect(fake.accepted).toEqual([
      {
        msgid: "1010079522",
        dstaddr: "0912345678",
        smbody: "【漢生活】驗證碼 123456，5 分鐘內有效。\x06請勿提供給任何人。",
        clientid: KEY,
      },
    ]);
  });

  it("joins the configured base URL with or without a trailing slash", async () => {
    await mitakeSmsProvider({ baseUrl: `${fake.url}/`, ...CREDENTIALS }).send({
      to: "+886912345678",
      text: "【漢生活】測試",
      idempotencyKey: KEY,
    });
    expect(fake.requests[0]?.url).toBe("/api/mtk/SmSend?CharsetURL=UTF8");
  });

  it("refuses numbers outside Taiwan before calling Mitake, permanently", async () => {
    const error = await deliveryError(
      provider().send({ to: "+819012345678", text: "【漢生活】測試", idempotencyKey: KEY }),
    );
    expect(error).toMatchObject({ provider: "mitake", permanent: true, code: "not-taiwan-mobile" });
    expect(fake.requests).toHaveLength(0);
  });

  it("treats a repeated clientid (Duplicate=Y) as sent, without a second message", async () => {
    const sms = { to: "+886912345678", text: "【漢生活】測試", idempotencyKey: KEY };
    const first = await provider().send(sms);
    const again = await provider().send(sms);
    expect(again).toEqual(first);
    expect(fake.accepted).toHaveLength(1);
    expect(fake.requests).toHaveLength(2);
  });

  it("maps wrong credentials (statuscode=e) to a permanent failure", async () => {
    const error = await deliveryError(
      provider({ password: "wrong" }).send({ to: "+886912345678", text: "【漢生活】測試", idempotencyKey: KEY }),
    );
    expect(error).toMatchObject({ provider: "mitake", permanent: true, retryable: false, code: "e", status: 200 });
    expect(error.message).toContain("帳號、密碼錯誤");
    expect(fake.accepted).toEqual([]);
  });

  it("maps Mitake's system error (statuscode=*) to a retryable failure", async () => {
    fake.fail("system-error");
    const error = await deliveryError(
      provider().send({ to: "+886912345678", text: "【漢生活】測試", idempotencyKey: KEY }),
    );
    expect(error).toMatchObject({ permanent: false, retryable: true, code: "*" });
  });

  it("maps HTTP 503 to a retryable failure", async () => {
    fake.fail("http-503");
    const error = await deliveryError(
      provider().send({ to: "+886912345678", text: "【漢生活】測試", idempotencyKey: KEY }),
    );
    expect(error).toMatchObject({ retryable: true, status: 503 });
  });

  it("maps a lost answer to a retryable failure; the retry is answered as a duplicate", async () => {
    fake.fail("lose-response");
    const sms = { to: "+886912345678", text: "【漢生活】測試", idempotencyKey: KEY };
    const error = await deliveryError(provider().send(sms));
    expect(error.retryable).toBe(true);
    expect(fake.accepted).toHaveLength(1);

    expect(await provider().send(sms)).toEqual({ providerMessageId: fake.accepted[0]?.msgid });
    expect(fake.accepted).toHaveLength(1);
  });

  it("maps a closed port to a retryable failure", async () => {
    const url = fake.url;
    await fake.close();
    const error = await deliveryError(
      mitakeSmsProvider({ baseUrl: url, ...CREDENTIALS }).send({
        to: "+886912345678",
        text: "【漢生活】測試",
        idempotencyKey: KEY,
      }),
    );
    expect(error.retryable).toBe(true);
    fake = await startFakeMitake(CREDENTIALS);
  });
});

describe("Mitake answers", () => {
  it("are parsed from the first block, msgid without its # marker", () => {
    expect(parseMitakeResponse("[1]\r\nmsgid=#0000000013\r\nstatuscode=1\r\nAccountPoint=126\r\n")).toEqual({
      statuscode: "1",
      msgid: "0000000013",
      duplicate: false,
      error: undefined,
    });
    expect(parseMitakeResponse("[1]\nmsgid=1\nstatuscode=4\nDuplicate=Y\n[2]\nmsgid=2\nstatuscode=e\n")).toMatchObject({
      statuscode: "4",
      msgid: "1",
      duplicate: true,
    });
    expect(parseMitakeResponse("statuscode=e\nError=x")).toMatchObject({ statuscode: "e", error: "x" });
    expect(parseMitakeResponse("<html>gateway error</html>").statuscode).toBeUndefined();
  });

  it("are decoded as UTF-8, or as Big5 when they are not UTF-8", () => {
    const big5 = Buffer.from("statuscode=e\r\nError=", "ascii");
    const text = Buffer.concat([big5, Buffer.from("b162b8b9a142b14bbd58bff9bb7e", "hex")]);
    expect(decodeMitakeResponse(new Uint8Array(text))).toBe("statuscode=e\r\nError=帳號、密碼錯誤");
    expect(decodeMitakeResponse(new TextEncoder().encode("Error=帳號、密碼錯誤"))).toBe("Error=帳號、密碼錯誤");
  });
});
