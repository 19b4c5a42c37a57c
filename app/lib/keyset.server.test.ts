import { describe, expect, it } from "vitest";
import { decodeTimeCursor, encodeTimeCursor } from "./keyset.server";

const ID = "0b6f2c1e-4d3a-4b8e-9f10-2a3b4c5d6e7f";

describe("a newest-first list's time cursor", () => {
  it("carries the database's microseconds both ways", () => {
    const after = encodeTimeCursor("2026-12-07T05:06:07.123456Z", ID);
    expect(decodeTimeCursor(after)).toEqual({ at: "2026-12-07T05:06:07.123456Z", id: ID });
  });

  it("is no cursor unless this code made it: another shape, an impossible time, another id, junk", () => {
    for (const after of [
      null,
      "",
      "junk",
      `2026-12-07T05:06:07.123Z|${ID}`,
      `2026-13-45T05:06:07.123456Z|${ID}`,
      `2026-12-07 05:06:07.123456+00|${ID}`,
      "2026-12-07T05:06:07.123456Z|not-a-uuid",
      `2026-12-07T05:06:07.123456Z|${ID}\u0000`,
      `${"9".repeat(300)}|${ID}`,
    ]) {
      expect(decodeTimeCursor(after), String(after)).toBeNull();
    }
    expect(decodeTimeCursor("2026-12-07T05:06:07.123456Z|oak-01", /^[a-z0-9-]+$/)).toEqual({
      at: "2026-12-07T05:06:07.123456Z",
      id: "oak-01",
    });
  });
});
