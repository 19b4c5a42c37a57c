import { describe, expect, it } from "vitest";
import { captchaFailure, codeFailureText, rateLimitedFailure, readForm, tooManyRequestsText } from "./forms.server";
import { catalogT } from "./i18n.server";

const t = catalogT("zh-TW");

function form(entries: Record<string, string>) {
  const data = new FormData();
  for (const [key, value] of Object.entries(entries)) data.set(key, value);
  return data;
}

describe("form answers", () => {
  it("names why a code was refused", () => {
    expect(codeFailureText("expired", t)).toBe(t("auth.code.expired"));
    expect(codeFailureText("too_many_attempts", t)).toBe(t("auth.code.tooMany"));
    expect(codeFailureText("invalid", t)).toBe(t("auth.code.invalid"));
    expect(new Set([t("auth.code.expired"), t("auth.code.tooMany"), t("auth.code.invalid")]).size).toBe(3);
  });

  it("answers a rate limit with 429 beside the field, in minutes when it is long, keeping what was typed", () => {
    expect(tooManyRequestsText(30, t)).toContain(t("form.wait.seconds", { n: 30 }));
    expect(tooManyRequestsText(150, t)).toContain(t("form.wait.minutes", { n: 3 }));
    const answer = rateLimitedFailure(form({ phone: "0912-345-678", code: "123456" }), "phone", 3600, t);
    expect(answer.init?.status).toBe(429);
    expect(answer.data.errors).toEqual({ phone: [tooManyRequestsText(3600, t)] });
    expect(answer.data.values).toEqual({ phone: "0912-345-678" });
  });

  it("answers a failed captcha with a form-level message and the values kept", () => {
    const answer = captchaFailure(form({ phone: "0912-345-678" }), t);
    expect(answer.init?.status).toBe(400);
    expect(answer.data.formError).toBe(t("form.captchaFailed"));
    expect(answer.data.values).toEqual({ phone: "0912-345-678" });
  });
});

describe("readForm", () => {
  const post = (body: BodyInit, type: string) =>
    new Request("http://x/form", { method: "POST", body, headers: { "content-type": type } });
  async function statusOf(request: Request) {
    try {
      await readForm(request);
      return 200;
    } catch (thrown) {
      return (thrown as { init?: { status?: number } }).init?.status;
    }
  }

  it("answers 415 for JSON and plain text, and 400 for a broken multipart body", async () => {
    expect(await statusOf(post('{"name":"x"}', "application/json"))).toBe(415);
    expect(await statusOf(post("name=x", "text/plain"))).toBe(415);
    expect(await statusOf(new Request("http://x/form", { method: "POST", body: "name=x" }))).toBe(415);
    expect(await statusOf(post("--b\r\nbroken", "multipart/form-data; boundary=b"))).toBe(400);
  });

  it("removes control characters (a NUL byte) and keeps the rest of what was typed", async () => {
    const form = await readForm(
      post("name=%E6%9E%97%00%E9%9B%85%E5%A9%B7&street=A%0D%0AB%1F", "application/x-www-form-urlencoded"),
    );
    expect(form.get("name")).toBe("林雅婷");
    expect(form.get("street")).toBe("A\r\nB");
  });
});
