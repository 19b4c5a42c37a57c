import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import { ImportFileError } from "./errors";
import { csvRows, guessMapping, readCsvRow, uniqueHeaders } from "./read-csv";
import type { CsvMapping, ImportProblemCode } from "./record";
import { bytesOf, collect, gcFunction } from "./test-streams";

async function fileError(promise: Promise<unknown>): Promise<ImportFileError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ImportFileError) return error;
    throw error;
  }
  throw new Error("no ImportFileError");
}

async function readAll(input: string | Uint8Array, chunk = 5) {
  const opened = await csvRows(bytesOf(input, chunk));
  return { ...opened, rows: await collect(opened.rows) };
}

const shopline = '會員編號,姓名,手機,點數\nA001,王小明,0912-345-678,"1,200"\nA002,陳美麗,0922333444,0\n';

describe("csvRows", () => {
  it("reads a UTF-8 file: headers, rows as header → cell, line numbers", async () => {
    const { encoding, headers, rows } = await readAll(shopline);
    expect(encoding).toBe("utf-8");
    expect(headers).toEqual(["會員編號", "姓名", "手機", "點數"]);
    expect(rows).toEqual([
      { line: 2, cells: { 會員編號: "A001", 姓名: "王小明", 手機: "0912-345-678", 點數: "1,200" } },
      { line: 3, cells: { 會員編號: "A002", 姓名: "陳美麗", 手機: "0922333444", 點數: "0" } },
    ]);
  });

  it("reads a Big5 file right (as Excel on a Traditional Chinese Windows writes it)", async () => {
    const { encoding, headers, rows } = await readAll(iconv.encode(shopline.replace(/\n/g, "\r\n"), "big5"), 3);
    expect(encoding).toBe("big5");
    expect(headers).toEqual(["會員編號", "姓名", "手機", "點數"]);
    expect(rows.map((r) => r.cells.姓名)).toEqual(["王小明", "陳美麗"]);
  });

  it("removes a BOM from the first header", async () => {
    const bom = Uint8Array.from([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(shopline)]);
    const { headers } = await readAll(bom, 2);
    expect(headers[0]).toBe("會員編號");
  });

  it("reads UTF-16 LE and BE files with their BOM (Excel's Unicode text) into the same rows as the UTF-8 file", async () => {
    const utf8 = await readAll(shopline);
    const le = Uint8Array.from([0xff, 0xfe, ...iconv.encode(shopline, "utf16le")]);
    const be = Uint8Array.from([0xfe, 0xff, ...iconv.encode(shopline, "utf16be")]);
    for (const [bytes, encoding] of [
      [le, "utf-16le"],
      [be, "utf-16be"],
    ] as const) {
      // Odd chunks: a code unit (and a character) is cut between two chunks.
      const read = await readAll(bytes, 3);
      expect(read).toMatchObject({ encoding, bom: true, detected: true });
      expect(read.headers).toEqual(["會員編號", "姓名", "手機", "點數"]);
      expect(read.rows).toEqual(utf8.rows);
    }
  });

  it("reads Excel's Unicode text (UTF-16 LE, tabs, CRLF) and lets its BOM win over a chosen encoding", async () => {
    const tabbed = "會員編號\t姓名\t手機\t點數\r\nA001\t王小明\t0912-345-678\t1,200\r\nA002\t陳美麗\t0922333444\t0\r\n";
    const bytes = Uint8Array.from([0xff, 0xfe, ...iconv.encode(tabbed, "utf16le")]);
    const opened = await csvRows(bytesOf(bytes, 5), { encoding: "big5" });
    expect(opened).toMatchObject({ encoding: "utf-16le", detected: true });
    expect(opened.headers).toEqual(["會員編號", "姓名", "手機", "點數"]);
    expect((await collect(opened.rows)).map((r) => r.cells.點數)).toEqual(["1,200", "0"]);
  });

  it("still refuses UTF-16 without its BOM (NUL bytes, not text it can tell)", async () => {
    expect(await fileError(csvRows(bytesOf(iconv.encode(shopline, "utf16le"))))).toMatchObject({ code: "not_csv" });
  });

  it("says whether a UTF-8 file had a BOM and whether the encoding was detected or given", async () => {
    const bom = Uint8Array.from([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(shopline)]);
    expect(await csvRows(bytesOf(bom))).toMatchObject({ encoding: "utf-8", bom: true, detected: true });
    expect(await csvRows(bytesOf(shopline), { encoding: "utf-8" })).toMatchObject({ bom: false, detected: false });
  });

  it("makes empty and repeated headers unique, trims them", () => {
    expect(uniqueHeaders([" 姓名 ", "", "電話", "電話", "\uFEFF電話"])).toEqual([
      "姓名",
      "column_2",
      "電話",
      "電話_2",
      "電話_3",
    ]);
  });

  it("reads tab- and semicolon-separated files, quoted cells over two lines, and skips empty rows", async () => {
    const { headers, rows } = await readAll('name\tphone\n"王\n小明"\t0912345678\n\t\n陳\t0922333444\n');
    expect(headers).toEqual(["name", "phone"]);
    expect(rows).toEqual([
      { line: 2, cells: { name: "王\n小明", phone: "0912345678" } },
      { line: 5, cells: { name: "陳", phone: "0922333444" } },
    ]);
    const semi = await readAll("a;b\n1;2\n");
    expect(semi.rows[0]?.cells).toEqual({ a: "1", b: "2" });
  });

  it("pads short rows and keeps the cells of long rows as column_<n>", async () => {
    const { rows } = await readAll(`a,b,c\n1,2\n1,2,3,4\n${"1,2,3\n".repeat(8)}`);
    expect(rows[0]?.cells).toEqual({ a: "1", b: "2", c: "" });
    expect(rows[1]?.cells).toEqual({ a: "1", b: "2", c: "3", column_4: "4" });
  });

  it("refuses a JSON file given as CSV", async () => {
    expect((await fileError(csvRows(bytesOf('{"users":[{"localId":"a"}]}')))).code).toBe("not_csv");
    expect((await fileError(csvRows(bytesOf('  [\n{"a":1}\n]')))).code).toBe("not_csv");
  });

  it("refuses binary files (NUL bytes, control characters)", async () => {
    const zip = Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00, 0x08, 0x00]);
    expect(await fileError(csvRows(bytesOf(zip)))).toMatchObject({ code: "not_csv", line: 1 });
    expect(await fileError(csvRows(bytesOf("a,b\n\u0001\u0002,x\n")))).toMatchObject({ code: "not_csv" });
  });

  it("refuses text whose rows do not agree with the header (prose, not a table)", async () => {
    const prose =
      "Dear customer,\nThank you for your order, it ships today, by post, from Taipei.\nRegards, the shop, and team.\nP.S. more, text, here, and, more\n";
    expect((await fileError(csvRows(bytesOf(prose)))).code).toBe("not_csv");
  });

  it("refuses broken quoting, and says an open quote at the end is a cut-off file", async () => {
    expect((await fileError(collectRows('a,b\n1,x"y"z\n'))).code).toBe("not_csv");
    expect((await fileError(collectRows('a,b\n1,"never closed\n2,3\n'))).code).toBe("truncated");
  });

  it("says an empty file is empty", async () => {
    expect((await fileError(csvRows(bytesOf("")))).code).toBe("empty");
    expect((await fileError(csvRows(bytesOf("\n\n  \n")))).code).toBe("empty");
  });

  it("streams a 1,000,000-row file generated lazily, counting every row", async () => {
    const total = 1_000_000;
    async function* generated(): AsyncGenerator<Uint8Array> {
      const encoder = new TextEncoder();
      yield encoder.encode("會員編號,手機,點數\n");
      const batch = 5_000;
      for (let start = 0; start < total; start += batch) {
        let s = "";
        for (let i = start; i < start + batch; i++) s += `M${i},09${String(i).padStart(8, "0")},${i % 1000}\n`;
        yield encoder.encode(s);
      }
    }
    // Retained memory, not garbage: heapUsed right after a full collection (a loaded machine collects later, so
    // heapUsed alone moved with the load and made this test flaky at 150 MB).
    const fullGc = gcFunction();
    fullGc();
    const before = process.memoryUsage().heapUsed;
    const { rows } = await csvRows(generated());
    let count = 0;
    let last = "";
    let peak = 0;
    for await (const row of rows) {
      count++;
      last = row.cells.會員編號 ?? "";
      if (count % 100_000 === 0) {
        fullGc();
        peak = Math.max(peak, process.memoryUsage().heapUsed - before);
      }
    }
    expect(count).toBe(total);
    expect(last).toBe(`M${total - 1}`);
    // The whole file is ~30 MB of text, ~300 MB as row objects: streaming retains a few MB of it at any time.
    expect(peak).toBeLessThan(50 * 1024 * 1024);
  }, 240_000);
});

async function collectRows(text: string) {
  const { rows } = await csvRows(bytesOf(text));
  return collect(rows);
}

describe("guessMapping", () => {
  it("maps a SHOPLINE/CYBERBIZ-like Chinese header row", () => {
    const headers = [
      "會員編號",
      "姓名",
      "電話",
      "手機",
      "電子郵件",
      "生日",
      "性別",
      "會員等級",
      "點數",
      "點數到期日",
      "統一編號",
      "公司名稱",
      "載具",
      "行銷簡訊",
      "訂閱電子報",
      "同意日期",
      "同意管道",
      "備註",
    ];
    expect(guessMapping(headers)).toEqual({
      會員編號: "externalId",
      姓名: "nameZh",
      電話: "ignore",
      手機: "phoneNumber",
      電子郵件: "email",
      生日: "birthday",
      性別: "gender",
      會員等級: "tier",
      點數: "points",
      點數到期日: "pointsLastDay",
      統一編號: "taxIdNumber",
      公司名稱: "companyName",
      載具: "einvoiceCarrier",
      行銷簡訊: "marketingSms",
      訂閱電子報: "marketingEmail",
      同意日期: "consentDate",
      同意管道: "consentChannel",
      備註: "ignore",
    });
  });

  it("maps English headers and variations (統編, Email, remarks in brackets)", () => {
    expect(
      guessMapping([
        "Customer ID",
        "Name",
        "Mobile Phone",
        "E-mail",
        "Birthday",
        "Gender",
        "Membership Tier",
        "Points",
        "Points Expiry Date",
        "Accepts Email Marketing",
        "Accepts SMS Marketing",
      ]),
    ).toEqual({
      "Customer ID": "externalId",
      Name: "nameZh",
      "Mobile Phone": "phoneNumber",
      "E-mail": "email",
      Birthday: "birthday",
      Gender: "gender",
      "Membership Tier": "tier",
      Points: "points",
      "Points Expiry Date": "pointsLastDay",
      "Accepts Email Marketing": "marketingEmail",
      "Accepts SMS Marketing": "marketingSms",
    });
    expect(guessMapping(["統編", "Email", "手機號碼(必填)", "電話"])).toEqual({
      統編: "taxIdNumber",
      Email: "email",
      "手機號碼(必填)": "phoneNumber",
      電話: "ignore",
    });
    expect(guessMapping(["電話", "行動電話"])).toEqual({ 電話: "ignore", 行動電話: "phoneNumber" });
    expect(guessMapping(["電話"])).toEqual({ 電話: "phoneNumber" });
  });
});

const mapping: CsvMapping = {
  會員編號: "externalId",
  姓名: "nameZh",
  手機: "phoneNumber",
  email: "email",
  生日: "birthday",
  性別: "gender",
  等級: "tier",
  點數: "points",
  到期日: "pointsLastDay",
  統編: "taxIdNumber",
  公司: "companyName",
  載具: "einvoiceCarrier",
  行銷簡訊: "marketingSms",
  電子報: "marketingEmail",
  LINE: "marketingLine",
  同意日期: "consentDate",
  同意管道: "consentChannel",
  備註: "ignore",
};
const now = new Date("2026-12-06T04:00:00Z");
const read = (cells: Record<string, string>, line = 2) => readCsvRow(cells, mapping, line, now);
const codes = (cells: Record<string, string>) => read(cells).problems.map((p) => `${p.code}:${p.severity}`);

describe("readCsvRow", () => {
  it("reads a full row", () => {
    const { record, problems } = read({
      會員編號: "A001",
      姓名: " 王小明 ",
      手機: "0912-345-678",
      email: "Ming@Example.COM",
      生日: "75/03/02",
      性別: "男",
      等級: "金卡",
      點數: "1,200",
      到期日: "2027/12/31",
      統編: "04595257",
      公司: "漢生活股份有限公司",
      載具: "/abc+123",
      行銷簡訊: "Y",
      電子報: "否",
      LINE: "",
      同意日期: "2024/05/01 14:30",
      同意管道: "store",
      備註: "VIP 客人",
      未對應: "x",
    });
    expect(problems).toEqual([]);
    expect(record).toEqual({
      externalId: "A001",
      phoneNumber: "+886912345678",
      email: "ming@example.com",
      emailVerified: false,
      nameZh: "王小明",
      gender: "male",
      birthday: "1986-03-02",
      tier: "gold",
      points: 1200,
      pointsLastDay: "2027-12-31",
      companyName: "漢生活股份有限公司",
      taxIdNumber: "04595257",
      einvoiceCarrier: "/ABC+123",
      disabled: false,
      consents: [
        { kind: "marketing_sms", granted: true, at: "2024-05-01T06:30:00.000Z", channel: "store" },
        { kind: "marketing_email", granted: false, at: "2024-05-01T06:30:00.000Z", channel: "store" },
      ],
      password: null,
      lineUserId: null,
      joinedAt: null,
      lastLoginAt: null,
      extra: { 備註: "VIP 客人", 未對應: "x" },
    });
  });

  it("accepts the phone as people and spreadsheets write it", () => {
    for (const phone of [
      "0912-345-678",
      "0912345678",
      "+886912345678",
      "886912345678",
      "+886 912 345 678",
      '="0912345678"',
      "912345678",
    ]) {
      expect(read({ 手機: phone }).record?.phoneNumber).toBe("+886912345678");
    }
  });

  it("takes the external id from its column, else the phone, else the line", () => {
    expect(read({ 會員編號: "M9", 手機: "0912345678" }).record?.externalId).toBe("M9");
    expect(read({ 會員編號: "", 手機: "0912345678" }).record?.externalId).toBe("+886912345678");
    expect(read({ 手機: "" }, 17).record?.externalId).toBe("line:17");
  });

  it("refuses a missing or invalid phone", () => {
    expect(codes({ 姓名: "王" })).toEqual(["phone_missing:reject"]);
    expect(codes({ 手機: "02-2345-6789" })).toEqual(["phone_invalid:reject"]);
  });

  it("reads birthdays in 西元 and 民國", () => {
    const day = (v: string) => read({ 手機: "0912345678", 生日: v }).record?.birthday;
    expect(day("1986-03-02")).toBe("1986-03-02");
    expect(day("1986/3/2")).toBe("1986-03-02");
    expect(day("19860302")).toBe("1986-03-02");
    expect(day("75/03/02")).toBe("1986-03-02");
    expect(day("075/3/2")).toBe("1986-03-02");
    expect(day("0750302")).toBe("1986-03-02");
    expect(day("民國75年3月2日")).toBe("1986-03-02");
    expect(day("1986年03月02日")).toBe("1986-03-02");
    expect(day("1986/03/02 00:00:00")).toBe("1986-03-02");
  });

  it("notes an unreadable birthday, gender, e-mail, 統編 and carrier, keeping the values in extra", () => {
    const { record, problems } = read({
      手機: "0912345678",
      生日: "1986-02-30",
      性別: "?",
      email: "not-an-email",
      統編: "12345678",
      載具: "ABC",
    });
    expect(problems.map((p) => `${p.code}:${p.severity}`)).toEqual([
      "email_invalid:note",
      "birthday_invalid:note",
      "gender_unknown:note",
      "tax_id_invalid:note",
      "carrier_invalid:note",
    ]);
    expect(record).toMatchObject({
      birthday: null,
      gender: null,
      email: null,
      taxIdNumber: null,
      einvoiceCarrier: null,
    });
    expect(record?.extra).toEqual({
      生日: "1986-02-30",
      性別: "?",
      email: "not-an-email",
      統編: "12345678",
      載具: "ABC",
    });
    expect(codes({ 手機: "0912345678", 生日: "2030-01-01" })).toEqual(["birthday_invalid:note"]);
  });

  it("reads genders", () => {
    const g = (v: string) => read({ 手機: "0912345678", 性別: v }).record?.gender;
    expect([g("男"), g("M"), g("male"), g("女"), g("F"), g("Female"), g("其他"), g("")]).toEqual([
      "male",
      "male",
      "male",
      "female",
      "female",
      "female",
      "undisclosed",
      null,
    ]);
  });

  it("reads tiers and refuses an unknown one", () => {
    const t = (v: string) => read({ 手機: "0912345678", 等級: v }).record?.tier;
    expect([t("一般"), t("一般會員"), t("銀卡"), t("金卡"), t("basic"), t("Silver"), t("GOLD"), t("")]).toEqual([
      "basic",
      "basic",
      "silver",
      "gold",
      "basic",
      "silver",
      "gold",
      null,
    ]);
    expect(codes({ 手機: "0912345678", 等級: "鑽石卡" })).toEqual(["tier_unknown:reject"]);
  });

  it("reads points as a whole number ≥ 0 and refuses negative or fractional balances", () => {
    const p = (v: string) => read({ 手機: "0912345678", 點數: v }).record?.points;
    expect([p("1,200"), p("0"), p(""), p("35.00"), p(" 7 ")]).toEqual([1200, 0, 0, 35, 7]);
    for (const bad of ["-5", "1.5", "abc", "99999999999"]) {
      expect(codes({ 手機: "0912345678", 點數: bad })).toEqual(["points_invalid:reject"]);
    }
  });

  it("notes an expiry in the past and refuses an unreadable one", () => {
    expect(codes({ 手機: "0912345678", 點數: "10", 到期日: "2026-12-05" })).toEqual(["expiry_past:note"]);
    expect(read({ 手機: "0912345678", 到期日: "2026-12-05" }).record?.pointsLastDay).toBe("2026-12-05");
    expect(codes({ 手機: "0912345678", 到期日: "2026-12-06" })).toEqual([]);
    expect(codes({ 手機: "0912345678", 到期日: "115/12/31" })).toEqual([]);
    expect(codes({ 手機: "0912345678", 到期日: "soon" })).toEqual(["expiry_invalid:reject"]);
  });

  it("imports a consent only with its date; a flag without one, or an unreadable flag, is noted", () => {
    const noDate = read({ 手機: "0912345678", 行銷簡訊: "是" });
    expect(noDate.record?.consents).toEqual([]);
    expect(noDate.problems).toEqual([{ field: "marketingSms", code: "consent_invalid", severity: "note" }]);
    expect(noDate.record?.extra).toEqual({ 行銷簡訊: "是" });
    expect(codes({ 手機: "0912345678", LINE: "maybe", 同意日期: "2024-01-01" })).toEqual(["consent_invalid:note"]);
    expect(codes({ 手機: "0912345678", 行銷簡訊: "1", 同意日期: "not a date" })).toEqual(["consent_invalid:note"]);
    const line = read({ 手機: "0912345678", LINE: "true", 同意日期: "2024-01-01" }).record?.consents;
    expect(line).toEqual([
      { kind: "marketing_line", granted: true, at: "2023-12-31T16:00:00.000Z", channel: "import" },
    ]);
  });

  it("emits only known problem codes", () => {
    const all: ImportProblemCode[] = [];
    const rows: Record<string, string>[] = [
      {},
      { 手機: "1" },
      { 手機: "0912345678", 點數: "-1", 等級: "x", 到期日: "x" },
    ];
    for (const cells of rows) {
      all.push(...read(cells).problems.map((p) => p.code));
    }
    expect(all).toEqual(["phone_missing", "phone_invalid", "tier_unknown", "points_invalid", "expiry_invalid"]);
  });
});

describe("guessMapping, expiry words", () => {
  it("takes only a points expiry for pointsLastDay, not another date that expires", () => {
    expect(guessMapping(["等級到期日", "點數"])).toEqual({ 等級到期日: "ignore", 點數: "points" });
    expect(guessMapping(["紅利點數到期日"])).toEqual({ 紅利點數到期日: "pointsLastDay" });
    expect(guessMapping(["到期日"])).toEqual({ 到期日: "pointsLastDay" });
  });
});

describe("csvRows, stopping early", () => {
  it("lets go of the input when the caller stops reading", async () => {
    let released = false;
    async function* input(): AsyncGenerator<Uint8Array> {
      try {
        yield new TextEncoder().encode("a,b\n");
        for (let i = 0; ; i++) yield new TextEncoder().encode(`${i},x\n`.repeat(1000));
      } finally {
        released = true;
      }
    }
    const { rows } = await csvRows(input());
    let n = 0;
    for await (const _ of rows) if (++n === 10) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(n).toBe(10);
    expect(released).toBe(true);
  });
});

describe("csvRows, Excel's sep= line", () => {
  it("takes the delimiter from it and does not read it as a row", async () => {
    const { headers, rows } = await readAll("sep=;\r\n手機;點數\r\n0912345678;5\r\n");
    expect(headers).toEqual(["手機", "點數"]);
    expect(rows).toEqual([{ line: 3, cells: { 手機: "0912345678", 點數: "5" } }]);
  });
});

describe("csvRows, a failing input", () => {
  it("passes the input's own error through (e.g. the upload limit), not as not_csv", async () => {
    const limit = new Error("file_too_large");
    async function* input(): AsyncGenerator<Uint8Array> {
      yield new TextEncoder().encode("a,b\n1,2\n");
      for (let i = 0; i < 20; i++) yield new TextEncoder().encode("3,4\n".repeat(5000));
      throw limit;
    }
    const { rows } = await csvRows(input());
    await expect(collect(rows)).rejects.toBe(limit);
  });
});
