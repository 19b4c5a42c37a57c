import { describe, expect, it } from "vitest";
import { preferredCoding } from "./content-coding";

describe("preferredCoding", () => {
  const both = ["br", "gzip"] as const;

  it("takes our order between codings the client weighs the same, not the order of its header", () => {
    expect(preferredCoding("gzip, deflate, br, zstd", both)).toBe("br");
    expect(preferredCoding("gzip, deflate, br", ["gzip", "br"])).toBe("gzip");
    expect(preferredCoding("GZIP , BR", both)).toBe("br");
  });

  it("follows the client's weights first", () => {
    expect(preferredCoding("br;q=0.5, gzip", both)).toBe("gzip");
    expect(preferredCoding("br;q=0.9, gzip;q=0.8", both)).toBe("br");
    expect(preferredCoding("gzip; q=0.2", both)).toBe("gzip");
  });

  it("answers null when the client takes none of them", () => {
    expect(preferredCoding(undefined, both)).toBeNull();
    expect(preferredCoding("", both)).toBeNull();
    expect(preferredCoding("identity", both)).toBeNull();
    expect(preferredCoding("deflate, zstd", both)).toBeNull();
    expect(preferredCoding("br;q=0, gzip;q=0.000", both)).toBeNull();
    expect(preferredCoding("gzip", ["br"])).toBeNull();
  });

  it("reads * as every coding the header does not name", () => {
    expect(preferredCoding("*", both)).toBe("br");
    expect(preferredCoding("br;q=0, *", both)).toBe("gzip");
    expect(preferredCoding("*;q=0", both)).toBeNull();
    expect(preferredCoding("gzip;q=0.3, *;q=0.1", both)).toBe("gzip");
  });

  it("ignores a malformed weight, keeping the coding at weight 1", () => {
    expect(preferredCoding("br;q=abc", both)).toBe("br");
    expect(preferredCoding("br;q=2, gzip;q=0.5", both)).toBe("br");
    expect(preferredCoding(",,;q=1, gzip", both)).toBe("gzip");
  });
});
