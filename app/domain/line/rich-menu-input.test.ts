import { describe, expect, it } from "vitest";
import { readImageHeader } from "./rich-menu-image";
import { checkRichMenu, checkRichMenuImage, parseRichMenuForm, RICH_MENU_RULES } from "./rich-menu-input";
import { pngOf } from "./rich-menu-testing";

/** A JPEG: SOI, an APP0 segment, then SOF0 with the size. */
function jpegOf(width: number, height: number): Uint8Array {
  const app0 = [
    0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00,
  ];
  const sof = [0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x03];
  return new Uint8Array([0xff, 0xd8, ...app0, ...sof, ...new Array(9).fill(0), 0xff, 0xd9]);
}

const form = (over: Record<string, string> = {}) => ({
  title: "會員選單",
  chatBarText: "會員專區",
  a0x: "0",
  a0y: "0",
  a0w: "1250",
  a0h: "843",
  a0kind: "card",
  a0value: "",
  a1x: "1250",
  a1y: "0",
  a1w: "1250",
  a1h: "843",
  a1kind: "uri",
  a1value: "https://han-living.example/our-store",
  ...over,
});

describe("the rich-menu image (LINE's rules)", () => {
  it("reads the size of a PNG and a JPEG from their headers", () => {
    expect(readImageHeader(pngOf(2500, 843))).toEqual({ type: "image/png", width: 2500, height: 843 });
    expect(readImageHeader(jpegOf(1200, 810))).toEqual({ type: "image/jpeg", width: 1200, height: 810 });
    expect(readImageHeader(new TextEncoder().encode("GIF89a not an image we take"))).toBeNull();
    expect(readImageHeader(pngOf(2500, 843).subarray(0, 20))).toBeNull();
  });

  it.each([
    ["2500×843", pngOf(2500, 843), null],
    ["800×250 (the smallest)", pngOf(800, 250), null],
    ["800×540", jpegOf(800, 540), null],
    ["too narrow (799)", pngOf(799, 250), "imageTooNarrow"],
    ["too wide (2501)", pngOf(2501, 843), "imageTooWide"],
    ["too short (249)", pngOf(1000, 249), "imageTooShort"],
    ["a square (aspect 1)", pngOf(1200, 1200), "imageAspect"],
    ["aspect 1.44", pngOf(1440, 1000), "imageAspect"],
    ["aspect 1.45", pngOf(1450, 1000), null],
    ["over 1 MB", pngOf(2500, 843, RICH_MENU_RULES.maxBytes + 1), "imageTooLarge"],
    ["not an image", new TextEncoder().encode("hello"), "notImage"],
  ])("%s", (_name, bytes, problem) => {
    const checked = checkRichMenuImage(bytes);
    expect(checked.ok ? null : checked.problem).toBe(problem);
  });
});

describe("the rich-menu form", () => {
  it("reads the menu and skips empty rows", () => {
    const parsed = parseRichMenuForm(form({ a2x: "", a2y: "", a2w: "", a2h: "", a2kind: "uri", a2value: "" }));
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value.areas).toEqual([
      { x: 0, y: 0, width: 1250, height: 843, kind: "card", value: "" },
      { x: 1250, y: 0, width: 1250, height: 843, kind: "uri", value: "https://han-living.example/our-store" },
    ]);
    expect(parsed.value.rows).toEqual([0, 1]);
    expect(checkRichMenu(parsed.value, { width: 2500, height: 843 })).toEqual({});
  });

  it("refuses a chat bar text over 14 characters and a missing title", () => {
    const parsed = parseRichMenuForm(form({ chatBarText: "一二三四五六七八九十一二三四五", title: "  " }));
    expect(parsed.ok ? null : parsed.problems).toEqual({ chatBarText: ["tooLong"], title: ["required"] });
    expect(parseRichMenuForm(form({ chatBarText: "一二三四五六七八九十一二三四" })).ok).toBe(true);
  });

  it("finds an area outside the image, on its own row", () => {
    const parsed = parseRichMenuForm(form({ a1x: "1251" }));
    if (!parsed.ok) throw new Error("expected the form to parse");
    expect(checkRichMenu(parsed.value, { width: 2500, height: 843 })).toEqual({ a1: ["outOfBounds"] });
    expect(checkRichMenu(parsed.value, { width: 2500, height: 842 })).toEqual({
      a0: ["outOfBounds"],
      a1: ["outOfBounds"],
    });
  });

  it("refuses more than 20 areas and none at all", () => {
    const many: Record<string, string> = { title: "t", chatBarText: "c" };
    for (let i = 0; i < 21; i++)
      Object.assign(many, {
        [`a${i}x`]: "0",
        [`a${i}y`]: "0",
        [`a${i}w`]: "10",
        [`a${i}h`]: "10",
        [`a${i}kind`]: "card",
      });
    expect(parseRichMenuForm(many).ok ? null : (parseRichMenuForm(many) as { problems: object }).problems).toEqual({
      areas: ["tooManyAreas"],
    });
    const none = parseRichMenuForm({ title: "t", chatBarText: "c", a0kind: "card" });
    expect(none.ok ? null : none.problems).toEqual({ areas: ["tooFewAreas"] });
  });

  it("words a bad row beside its fields: not a number, no address, a bad address, a NUL byte", () => {
    const parsed = parseRichMenuForm(
      form({
        a0x: "-1",
        a0w: "abc",
        a1value: "javascript:alert(1)",
        a2x: "1",
        a2y: "1",
        a2w: "1",
        a2h: "1",
        a2kind: "message",
        a2value: "",
      }),
    );
    expect(parsed.ok ? null : parsed.problems).toEqual({
      a0x: ["notWholeNumber"],
      a0w: ["notWholeNumber"],
      a1value: ["invalidUrl"],
      a2value: ["required"],
    });
    const forged = parseRichMenuForm(form({ a0kind: "postback\u0000" }));
    expect(forged.ok ? null : forged.problems).toEqual({ a0kind: ["required"] });
  });
});
