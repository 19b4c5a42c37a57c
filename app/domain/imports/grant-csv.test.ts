import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import { parseGrantPoints, readGrantCsv } from "./grant-csv";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("the bulk grant CSV", () => {
  it("reads quoted cells, doubled quotes, CRLF and blank lines (the member import's reader)", async () => {
    expect(
      await readGrantCsv(bytes('會員編號,點數,原因\r\n"HL1",5,"x, y"\r\n\r\n,,\r\nHL2,"1,000","say ""hi"""')),
    ).toEqual({
      ok: true,
      encoding: "utf-8",
      rows: [
        { line: 1, number: "HL1", phone: "", points: "5", reason: "x, y" },
        { line: 2, number: "HL2", phone: "", points: "1,000", reason: 'say "hi"' },
      ],
    });
    // The same delimiters as a member CSV (a tab-separated export).
    expect(await readGrantCsv(bytes("手機\t點數\n0912345678\t7\n"))).toMatchObject({
      ok: true,
      rows: [{ phone: "0912345678", points: "7" }],
    });
  });

  it("finds the columns by their Chinese or English names, UTF-8 with BOM or Big5", async () => {
    const utf8 = await readGrantCsv(bytes("\uFEFF會員編號,點數,原因\nHL10000001,100,補點\n"));
    expect(utf8).toEqual({
      ok: true,
      encoding: "utf-8",
      rows: [{ line: 1, number: "HL10000001", phone: "", points: "100", reason: "補點" }],
    });
    const big5 = await readGrantCsv(iconv.encode("手機,點數\r\n0912345678,50\r\n", "big5"));
    expect(big5).toMatchObject({ ok: true, encoding: "big5", rows: [{ phone: "0912345678", points: "50" }] });
    expect(await readGrantCsv(bytes("Member Number,Points,Reason\nHL1,1,x\n"))).toMatchObject({ ok: true });
    // Excel's "Unicode text": UTF-16 LE with its BOM, tab-separated.
    const utf16 = await readGrantCsv(iconv.encode("\uFEFF手機\t點數\r\n0912345678\t30\r\n", "utf-16le"));
    expect(utf16).toMatchObject({ ok: true, encoding: "utf-16le", rows: [{ phone: "0912345678", points: "30" }] });
  });

  it("refuses an empty file, a file without the columns, a binary file and an unclosed quote", async () => {
    expect(await readGrantCsv(new Uint8Array())).toEqual({ ok: false, error: "empty" });
    expect(await readGrantCsv(bytes("會員編號,點數\n"))).toEqual({ ok: false, error: "empty" });
    expect(await readGrantCsv(bytes("姓名,電話\n王,1\n"))).toEqual({ ok: false, error: "columns_missing" });
    expect(await readGrantCsv(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00]))).toEqual({
      ok: false,
      error: "not_csv",
    });
    expect(await readGrantCsv(bytes('會員編號,點數\n"HL1,5\n'))).toEqual({ ok: false, error: "not_csv" });
    // A NUL byte past the reader's first 64 kB is still a binary file.
    const late = bytes(`會員編號,點數\n${"HL1,5\n".repeat(20_000)}\u0000\n`);
    expect(await readGrantCsv(late)).toEqual({ ok: false, error: "not_csv" });
    expect(await readGrantCsv(bytes('{"members":[]}'))).toEqual({ ok: false, error: "not_csv" });
  });

  it("points: a whole number 1 … 100,000, as people type it", () => {
    expect(parseGrantPoints("100")).toBe(100);
    expect(parseGrantPoints("1,000")).toBe(1000);
    expect(parseGrantPoints("１２０")).toBe(120);
    expect(parseGrantPoints("100000")).toBe(100_000);
    for (const bad of ["", "0", "-5", "1.5", "1e3", "abc", "100001", "+5"])
      expect(parseGrantPoints(bad), bad).toBeNull();
  });
});
