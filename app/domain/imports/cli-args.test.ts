import { describe, expect, it } from "vitest";
import { formatMapping, parseCsvArgs, parseFirebaseArgs, parseMapOption, problemLines } from "./cli-args";

describe("import:firebase arguments", () => {
  it("reads the files, the flags and a sample whose password holds colons", () => {
    const parsed = parseFirebaseArgs([
      "--auth",
      "users.json",
      "--members",
      "memberList.ndjson",
      "--hash-config",
      "hash.json",
      "--sample",
      "0912345678:pa:ss",
      "--welcome",
      "--dry-run",
    ]);
    expect(parsed).toEqual({
      ok: true,
      args: {
        kind: "firebase",
        auth: "users.json",
        members: "memberList.ndjson",
        hashConfig: "hash.json",
        source: "firebase",
        sample: { identifier: "0912345678", password: "pa:ss" },
        welcome: true,
        evaluateTiers: false,
        dryRun: true,
      },
    });
  });

  it("refuses a missing file option, an unknown option, a sample without hash config, a bad source", () => {
    const cases: [string[], RegExp][] = [
      [["--members", "m.json"], /^--auth is required\nusage: npm run import:firebase/],
      [["--auth", "u.json", "--members", "m.json", "--force"], /Unknown option '--force'/],
      [["--auth", "u.json", "--members", "m.json", "--sample", "0912345678:x"], /--sample .* --hash-config/],
      [["--auth", "u.json", "--members", "m.json", "--hash-config", "h.json", "--sample", "nocolon"], /^--sample:/],
      [["--auth", "u.json", "--members", "m.json", "--source", "Bad Label"], /^--source:/],
      [["--auth", "u.json", "--members"], /argument missing/],
      [["stray", "--auth", "u.json", "--members", "m.json"], /positional/i],
    ];
    for (const [argv, message] of cases) {
      const parsed = parseFirebaseArgs(argv);
      expect(parsed.ok, argv.join(" ")).toBe(false);
      if (!parsed.ok) expect(parsed.message).toMatch(message);
    }
  });
});

describe("import:csv arguments", () => {
  it("reads the file, the source, the encoding (any spelling) and the mapping", () => {
    const parsed = parseCsvArgs([
      "--file",
      "a.csv",
      "--source",
      "shopline",
      "--encoding",
      "BIG5",
      "--map",
      "手機=phoneNumber,備註=ignore",
    ]);
    expect(parsed).toMatchObject({
      ok: true,
      args: { file: "a.csv", source: "shopline", encoding: "big5", map: { 手機: "phoneNumber", 備註: "ignore" } },
    });
    expect(parseCsvArgs(["--file", "a.csv", "--source", "x", "--encoding", "utf8"])).toMatchObject({
      args: { encoding: "utf-8", map: null },
    });
  });

  it("refuses a missing source, an unknown encoding and a bad mapping", () => {
    expect(parseCsvArgs(["--file", "a.csv"])).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^--source is required/),
    });
    expect(parseCsvArgs(["--file", "a.csv", "--source", "x", "--encoding", "latin1"])).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^--encoding: utf-8 or big5/),
    });
    expect(parseCsvArgs(["--file", "a.csv", "--source", "x", "--map", "手機=phone"])).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^--map: "phone" is not a target/),
    });
  });
});

describe("--map", () => {
  it("takes the target after the last =, and each target once", () => {
    expect(parseMapOption("a=b=points, 姓名 = nameZh ,")).toEqual({
      ok: true,
      mapping: { "a=b": "points", 姓名: "nameZh" },
    });
    expect(parseMapOption("a=points,b=points")).toEqual({
      ok: false,
      message: '--map: "points" is given to both "a" and "b"',
    });
    expect(parseMapOption("a=ignore,b=ignore")).toMatchObject({ ok: true });
    expect(parseMapOption("a=points,a=nameZh")).toMatchObject({
      ok: false,
      message: expect.stringMatching(/mapped twice/),
    });
    expect(parseMapOption("points")).toMatchObject({ ok: false, message: expect.stringMatching(/not header=target/) });
    expect(formatMapping({ 手機: "phoneNumber", 備註: "ignore" })).toBe("手機=phoneNumber,備註=ignore");
  });
});

it("words the problems in the codes' order, only those counted", () => {
  expect(problemLines({ duplicate_in_file: 2, phone_invalid: 1, email_invalid: 0 })).toEqual([
    expect.stringMatching(/^ {2}phone_invalid +1 {2}the phone is not a Taiwan mobile number$/),
    expect.stringMatching(/^ {2}duplicate_in_file +2 {2}the same phone/),
  ]);
});
