import { describe, expect, it } from "vitest";
import { LoyaltyError } from "~/domain/loyalty/errors";
import { MaterialError } from "~/domain/materials/console.server";
import { CONSOLE_REFUSALS, Refusal, VersionConflict } from "~/domain/refusals";
import { serverT } from "~/lib/i18n.server";
import { consoleFailure } from "./console-failure.server";

const t = serverT(new Request("http://localhost/admin", { headers: { "accept-language": "zh-TW" } }));

function form(entries: Record<string, string>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(entries)) f.append(k, v);
  return f;
}

describe("consoleFailure", () => {
  it("puts a refusal with a field beside it, the area's fix line above the form, the values kept (never a code)", () => {
    const answer = consoleFailure(new MaterialError("duplicate_id", "id"), form({ id: "x", stepUpCode: "123456" }), t);
    expect(answer.init?.status).toBe(409);
    expect(answer.data).toEqual({
      errors: { id: [t("console.materials.error.duplicate_id")] },
      values: { id: "x" },
      formError: t("console.materials.error.form"),
    });
  });

  it("answers a version conflict 409 above the form, saying conflict, with what the page adds", () => {
    const answer = consoleFailure(new VersionConflict("messages", { version: 3 }), null, t, {
      values: { version: "3" },
      answer: { latest: "x" },
    });
    expect(answer.init?.status).toBe(409);
    expect(answer.data).toEqual({
      errors: {},
      values: { version: "3" },
      formError: t("console.messages.error.conflict"),
      conflict: true,
      latest: "x",
    });
  });

  it("words the loyalty area's codes as the page says, beside the field the page names, with the table's status", () => {
    const answer = consoleFailure(new LoyaltyError("insufficient_points", "no"), null, t, {
      fields: { insufficient_points: "amount" },
      wording: { insufficient_points: "console.adjust.error.below_zero", "*": "console.adjust.error.conflict" },
      params: { balance: "12" },
    });
    expect(answer.init?.status).toBe(409);
    expect(answer.data.errors).toEqual({ amount: [t("console.adjust.error.below_zero", { balance: "12" })] });
    const other = consoleFailure(new LoyaltyError("limit_reached", "no"), null, t, {
      wording: { "*": "console.adjust.error.conflict" },
    });
    expect(other.data.formError).toBe(t("console.adjust.error.conflict"));
  });

  it("throws on anything that is not a refusal", () => {
    const boom = new Error("boom");
    expect(() => consoleFailure(boom, null, t)).toThrow(boom);
  });
});

describe("the refusal table", () => {
  it("gives every code of every area a status and a message in the catalog", () => {
    for (const [area, codes] of Object.entries(CONSOLE_REFUSALS)) {
      for (const code of Object.keys(codes)) {
        const refusal = new Refusal(area as never, code as never);
        expect(refusal.status).toBeGreaterThanOrEqual(400);
        expect(t(refusal.messageKey)).not.toBe(refusal.messageKey);
      }
    }
  });
});
