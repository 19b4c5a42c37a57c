import { describe, expect, it } from "vitest";
import type { Translate } from "~/lib/i18n";
import { lookupSchema } from "./forms.server";

const t = ((key: string) => key) as Translate;
const lookup = (fields: Record<string, string>) => {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  return lookupSchema(t).safeParse(Object.fromEntries(form));
};

describe("finding a member at the counter", () => {
  it("takes an offline card's code typed (or sent by a scanner that types) as a card code (ADR 043)", () => {
    const code = "HLD1.urfcgCLZScK3REg_vOZgCw.59885327.12345678";
    expect(lookup({ query: ` ${code} ` }).data).toEqual({ scanned: false, query: { cardToken: code } });
    expect(lookup({ cardToken: code }).data).toEqual({ scanned: true, query: { cardToken: code } });
  });

  it("still reads member numbers, phones and the server's tokens as before", () => {
    expect(lookup({ query: "hl10000001" }).data).toEqual({ scanned: false, query: { memberNumber: "hl10000001" } });
    expect(lookup({ query: "0912-345-678" }).data).toEqual({ scanned: false, query: { phone: "0912-345-678" } });
    const token = `${"A".repeat(27)}.${"B".repeat(22)}`;
    expect(lookup({ query: token }).data).toEqual({ scanned: false, query: { cardToken: token } });
    expect(lookup({ query: "" }).success).toBe(false);
  });
});
