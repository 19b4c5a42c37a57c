import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { CLICK_TOKEN, campaignLinks, clickToken, linksIn, readClickToken, trackLinks } from "./click-links.server";

/** The click links of campaign messages (ADR 055): the token names one message and link and cannot be forged. */
const SECRET = "s".repeat(40);

describe("click tokens", () => {
  it("name the message and the link they were made for", () => {
    const id = randomUUID();
    for (const idx of [0, 1, 19, 255]) {
      const token = clickToken(SECRET, id, idx);
      expect(token).toMatch(CLICK_TOKEN);
      expect(readClickToken(SECRET, token)).toEqual({ messageId: id, idx });
    }
  });

  it("refuse every altered character, another secret, other lengths and NUL bytes", () => {
    const token = clickToken(SECRET, randomUUID(), 2);
    for (let i = 0; i < token.length; i++) {
      for (const c of ["A", "B", "-", "_", "z"]) {
        if (c === token[i]) continue;
        const altered = `${token.slice(0, i)}${c}${token.slice(i + 1)}`;
        expect(readClickToken(SECRET, altered), `position ${i}`).toBeNull();
      }
    }
    expect(readClickToken("t".repeat(40), token)).toBeNull();
    expect(readClickToken(SECRET, token.slice(1))).toBeNull();
    expect(readClickToken(SECRET, `${token}A`)).toBeNull();
    expect(readClickToken(SECRET, `${token.slice(0, 10)}\u0000${token.slice(11)}`)).toBeNull();
    expect(readClickToken(SECRET, "")).toBeNull();
  });

  it("cannot be made for something that is not a message id or a link number", () => {
    expect(() => clickToken(SECRET, "not-a-uuid", 0)).toThrow(RangeError);
    expect(() => clickToken(SECRET, randomUUID(), 256)).toThrow(RangeError);
  });
});

describe("links in campaign texts", () => {
  it("are found without the punctuation around them, LINE's first, each once", () => {
    expect(linksIn("新品 https://example.com/a?x=1。歡迎（https://example.com/b）")).toEqual([
      "https://example.com/a?x=1",
      "https://example.com/b",
    ]);
    expect(linksIn("See https://example.com/c, then http://example.com/d.")).toEqual([
      "https://example.com/c",
      "http://example.com/d",
    ]);
    expect(
      campaignLinks({ lineText: "https://x.test/1 https://x.test/2", emailBody: "https://x.test/2 https://x.test/3" }),
    ).toEqual(["https://x.test/1", "https://x.test/2", "https://x.test/3"]);
    expect(campaignLinks({ lineText: "沒有連結", emailBody: null })).toEqual([]);
  });

  it("are replaced by the message's click links, the rest of the text as written", () => {
    const links = ["https://example.com/a", "https://example.com/b"];
    const out = trackLinks(
      "看 https://example.com/a。再看 https://example.com/b, 與 https://other.test/",
      links,
      (i) => `[${i}]`,
    );
    expect(out).toBe("看 [0]。再看 [1], 與 https://other.test/");
    expect(trackLinks(null, links, (i) => `[${i}]`)).toBeNull();
  });
});
