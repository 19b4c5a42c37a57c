import { describe, expect, it } from "vitest";
import { appointmentIdOfToken, guestManageToken } from "./manage-link.server";

const SECRET = "manage-link-test-secret-0123456789abcdef";
const ID = "0b6f2c1e-4d3a-4b8e-9f10-2a3b4c5d6e7f";

describe("a guest's booking link", () => {
  it("names its booking, and only under the server secret it was made with", () => {
    const token = guestManageToken(SECRET, ID);
    expect(token).toMatch(/^[0-9a-f-]{36}\.[A-Za-z0-9_-]{22}$/);
    expect(appointmentIdOfToken(SECRET, token)).toBe(ID);
    expect(appointmentIdOfToken("another-secret-0123456789abcdefghij", token)).toBeNull();
  });

  it("refuses a token changed by one character, another booking's id with this signature, and junk", () => {
    const token = guestManageToken(SECRET, ID);
    const last = token.at(-1) === "A" ? "B" : "A";
    expect(appointmentIdOfToken(SECRET, `${token.slice(0, -1)}${last}`)).toBeNull();
    const other = "1b6f2c1e-4d3a-4b8e-9f10-2a3b4c5d6e7f";
    expect(appointmentIdOfToken(SECRET, `${other}${token.slice(36)}`)).toBeNull();
    for (const junk of [undefined, "", "x", `${ID}.`, `${ID}.short`, `${ID}\u0000.${"a".repeat(22)}`]) {
      expect(appointmentIdOfToken(SECRET, junk)).toBeNull();
    }
  });
});
