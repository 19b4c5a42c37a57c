import { describe, expect, it } from "vitest";
import { ImportFileError } from "./errors";
import { firebaseMembers, firebaseUsers, parseHashConfig, readFirebaseMember } from "./read-firebase";
import type { ImportProblemCode } from "./record";
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

const members = (text: string, chunk = 5) => collect(firebaseMembers(bytesOf(text, chunk)));
const users = (text: string, chunk = 5) => collect(firebaseUsers(bytesOf(text, chunk)));

describe("parseHashConfig", () => {
  const inner = {
    algorithm: "SCRYPT",
    base64_signer_key: "jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==",
    base64_salt_separator: "Bw==",
    rounds: 8,
    mem_cost: 14,
  };
  const expected = { signerKey: inner.base64_signer_key, saltSeparator: "Bw==", rounds: 8, memCost: 14 };

  it("reads hash.json as the console shows it, with or without the hash_config wrapper", () => {
    expect(parseHashConfig(JSON.stringify({ hash_config: inner }))).toEqual(expected);
    expect(parseHashConfig(`\uFEFF${JSON.stringify(inner, null, 2)}`)).toEqual(expected);
  });

  it("refuses what is not a hash config", () => {
    const invalid = { error: "hash_config_invalid" };
    expect(parseHashConfig("not json")).toEqual(invalid);
    expect(parseHashConfig("[]")).toEqual(invalid);
    expect(parseHashConfig(JSON.stringify({ ...inner, base64_signer_key: undefined }))).toEqual(invalid);
    expect(parseHashConfig(JSON.stringify({ ...inner, base64_signer_key: "not base64!" }))).toEqual(invalid);
    expect(parseHashConfig(JSON.stringify({ ...inner, rounds: 0 }))).toEqual(invalid);
    expect(parseHashConfig(JSON.stringify({ ...inner, mem_cost: "x" }))).toEqual(invalid);
    expect(parseHashConfig(JSON.stringify({ ...inner, algorithm: "BCRYPT" }))).toEqual(invalid);
  });
});

const exportText = `{"users": [
{"localId":"uE","email":"ming@example.com","emailVerified":true,"passwordHash":"aGFzaA==","salt":"c2FsdA==","createdAt":"1600000000000","lastSignedInAt":"1700000000000","providerUserInfo":[{"providerId":"password","rawId":"ming@example.com"}]},
{"localId":"uP","phoneNumber":"+886912345678","createdAt":"1500000000000","lastSignedInAt":"1710000000000","providerUserInfo":[{"providerId":"oidc.line-channel","rawId":"U4af4980629"}]},
{"note":"not a user"}
]}
`;

describe("firebaseUsers", () => {
  it("streams users.json, one entry per user with its line, split in tiny chunks", async () => {
    const list = await users(exportText, 3);
    expect(list.map((u) => [u.line, u.localId])).toEqual([
      [2, "uE"],
      [3, "uP"],
    ]);
    expect(list[0]?.raw).toMatchObject({ email: "ming@example.com", passwordHash: "aGFzaA==" });
  });

  it("does not rely on one user per line", async () => {
    const minified = JSON.stringify({ users: [{ localId: "a", email: "a@b.tw" }, { localId: "b" }] });
    expect((await users(minified)).map((u) => u.localId)).toEqual(["a", "b"]);
    const pretty = JSON.stringify({ users: [{ localId: "a", providerUserInfo: [{ rawId: "x]}" }] }] }, null, 2);
    expect(await users(pretty)).toEqual([
      { line: 3, localId: "a", raw: { localId: "a", providerUserInfo: [{ rawId: "x]}" }] } },
    ]);
  });

  it("says where a cut-off file ends, and refuses what is not JSON", async () => {
    const cut = exportText.slice(0, exportText.indexOf('"uP"') + 10);
    expect(await fileError(users(cut))).toMatchObject({ code: "truncated", line: 3 });
    expect(await fileError(users("localId,email\nu1,a@b.tw\n"))).toMatchObject({ code: "not_json", line: 1 });
    expect(await fileError(users('{"users": [\n{"localId": "a"},\n{"localId": nope}\n]}'))).toMatchObject({
      code: "not_json",
      line: 3,
    });
    expect(await fileError(users('{"users": []} trailing'))).toMatchObject({ code: "not_json" });
    expect(await fileError(users(" \n "))).toMatchObject({ code: "empty" });
  });

  it("streams 1,000,000 users generated lazily in bounded memory, counting every one", async () => {
    const total = 1_000_000;
    async function* generated(): AsyncGenerator<Uint8Array> {
      const encoder = new TextEncoder();
      yield encoder.encode('{"users": [\n');
      const batch = 5_000;
      for (let start = 0; start < total; start += batch) {
        let s = "";
        for (let i = start; i < start + batch; i++) {
          s += `{"localId":"u${i}","email":"u${i}@example.com","passwordHash":"aGFzaA==","salt":"c2FsdA=="}${i === total - 1 ? "" : ","}\n`;
        }
        yield encoder.encode(s);
      }
      yield encoder.encode("]}\n");
    }
    // Retained memory after a full collection, not heapUsed with garbage (which moves with the machine's load).
    const fullGc = gcFunction();
    fullGc();
    const before = process.memoryUsage().heapUsed;
    let count = 0;
    let last = { line: 0, localId: "" };
    let peak = 0;
    for await (const user of firebaseUsers(generated())) {
      count++;
      last = { line: user.line, localId: user.localId };
      if (count % 100_000 === 0) {
        fullGc();
        peak = Math.max(peak, process.memoryUsage().heapUsed - before);
      }
    }
    expect(count).toBe(total);
    expect(last).toEqual({ line: total + 1, localId: `u${total - 1}` });
    // ~90 MB of JSON, several hundred MB as objects: a streaming reader retains a few MB of it at any time.
    expect(peak).toBeLessThan(50 * 1024 * 1024);
  }, 240_000);
});

describe("firebaseMembers", () => {
  const doc1 = { documentId: "d1", userEmailId: "uE", name: { zh: "王小明" } };
  const doc2 = { id: "d2", userPhoneId: "uP" };

  it("reads a JSON array", async () => {
    const list = await members(JSON.stringify([doc1, doc2], null, 2));
    expect(list.map((m) => [m.line, m.documentId])).toEqual([
      [2, "d1"],
      [9, "d2"],
    ]);
    expect(list[0]?.raw).toEqual(doc1);
  });

  it("reads an object with an array property, skipping its other members", async () => {
    const text = JSON.stringify({ exportedAt: "2026-12-01", count: 2, documents: [doc1, doc2] });
    expect((await members(text)).map((m) => m.documentId)).toEqual(["d1", "d2"]);
  });

  it("reads an object keyed by document id, also under a collection name", async () => {
    const keyed = { d1: { userEmailId: "uE" }, d2: { __id: "d2", userPhoneId: "uP" } };
    expect((await members(JSON.stringify(keyed))).map((m) => m.documentId)).toEqual(["d1", "d2"]);
    expect((await members(JSON.stringify({ memberList: keyed }, null, 1))).map((m) => m.documentId)).toEqual([
      "d1",
      "d2",
    ]);
  });

  it("takes a large root member of unknown name for a keyed collection", async () => {
    const many: Record<string, unknown> = {};
    for (let i = 0; i < 20_000; i++) many[`doc${i}`] = { userEmailId: `u${i}`, phoneNumber: "0912345678" };
    const list = await members(JSON.stringify({ brandMembers: many }), 65_536);
    expect(list.length).toBe(20_000);
    expect(list[19_999]?.documentId).toBe("doc19999");
  });

  it("reads NDJSON and concatenated documents", async () => {
    const ndjson = `${JSON.stringify(doc1)}\n${JSON.stringify(doc2)}\n\n`;
    expect((await members(ndjson)).map((m) => [m.line, m.documentId])).toEqual([
      [1, "d1"],
      [2, "d2"],
    ]);
    const pretty = `${JSON.stringify(doc1, null, 2)}\n${JSON.stringify(doc2, null, 2)}`;
    expect((await members(pretty)).map((m) => [m.line, m.documentId])).toEqual([
      [1, "d1"],
      [8, "d2"],
    ]);
  });

  it("reads a file of one document", async () => {
    expect((await members(JSON.stringify(doc1))).map((m) => m.documentId)).toEqual(["d1"]);
  });

  it("gives an empty id when a document has none (the reader refuses it)", async () => {
    const list = await members(JSON.stringify([{ userEmailId: "x" }, 5]));
    expect(list.map((m) => m.documentId)).toEqual(["", ""]);
  });

  it("says where a truncated file ends: JSON and NDJSON", async () => {
    const pretty = JSON.stringify([doc1, doc2], null, 2);
    expect(await fileError(members(pretty.slice(0, -8)))).toMatchObject({ code: "truncated", line: 11 });
    const ndjson = `${JSON.stringify(doc1)}\n${JSON.stringify(doc2).slice(0, 10)}`;
    expect(await fileError(members(ndjson))).toMatchObject({ code: "truncated", line: 2 });
    expect(await fileError(members('[{"documentId": "a", "name": "unterminated'))).toMatchObject({ code: "truncated" });
  });

  it("refuses a file that is not JSON (a CSV, a broken document)", async () => {
    expect(await fileError(members("documentId,phone\nd1,0912345678\n"))).toMatchObject({ code: "not_json", line: 1 });
    const broken = `${JSON.stringify(doc1)}\n{"documentId": "d2", oops}\n`;
    expect(await fileError(members(broken))).toMatchObject({ code: "not_json", line: 2 });
    expect(await fileError(members(""))).toMatchObject({ code: "empty" });
  });
});

const authUsers = new Map<string, unknown>([
  [
    "uE",
    {
      localId: "uE",
      email: "Ming@Example.com",
      emailVerified: true,
      passwordHash: "aGFzaA==",
      salt: "c2FsdA==",
      createdAt: "1600000000000",
      lastSignedInAt: "1700000000000",
      providerUserInfo: [{ providerId: "password", rawId: "ming@example.com" }],
    },
  ],
  [
    "uP",
    {
      localId: "uP",
      phoneNumber: "+886912345678",
      passwordHash: "cGhvbmU=",
      salt: "cw==",
      createdAt: "1500000000000",
      lastSignedInAt: "1710000000000",
      providerUserInfo: [{ providerId: "oidc.line", rawId: "U4af4980629" }],
    },
  ],
  ["uBad", { localId: "uBad", passwordHash: "not base64!", salt: "c2FsdA==" }],
]);
const now = new Date("2026-12-06T04:00:00Z");
const read = (raw: unknown, documentId = "d1") => readFirebaseMember({ documentId, raw }, authUsers, now);
const codes = (raw: unknown) => read(raw).problems.map((p) => `${p.field}:${p.code}:${p.severity}`);

describe("readFirebaseMember", () => {
  it("reads a document and its two auth users", () => {
    const { record, problems } = read({
      documentId: "d1",
      userEmailId: "uE",
      userPhoneId: "uP",
      name: { zh: "王小明", en: "Ming" },
      gender: "male",
      companyName: "漢生活股份有限公司",
      taxIdNumber: "04595257",
      disabled: false,
      memberLevel: "銀卡",
      lastLoginAt: { _seconds: 1_720_000_000, _nanoseconds: 500_000_000 },
      points: 350,
      pointsLastDay: "2027-06-30",
      favouriteStore: "台北店",
    });
    expect(problems).toEqual([]);
    expect(record).toEqual({
      externalId: "d1",
      phoneNumber: "+886912345678",
      email: "ming@example.com",
      emailVerified: true,
      nameZh: "王小明",
      gender: "male",
      birthday: null,
      tier: "silver",
      points: 350,
      pointsLastDay: "2027-06-30",
      companyName: "漢生活股份有限公司",
      taxIdNumber: "04595257",
      einvoiceCarrier: null,
      disabled: false,
      consents: [],
      password: { kind: "firebase-scrypt", hash: "aGFzaA==", salt: "c2FsdA==" },
      lineUserId: "U4af4980629",
      joinedAt: new Date(1_500_000_000_000).toISOString(),
      lastLoginAt: "2024-07-03T09:46:40.500Z",
      extra: { name: { en: "Ming" }, favouriteStore: "台北店" },
    });
  });

  it("prefers the document's phone and e-mail; an e-mail not the auth user's is not verified", () => {
    const { record } = read({ userEmailId: "uE", phoneNumber: "0922-333-444", email: "other@example.com" });
    expect(record).toMatchObject({ phoneNumber: "+886922333444", email: "other@example.com", emailVerified: false });
  });

  it("takes the password from the phone user when the e-mail user has none", () => {
    expect(read({ userPhoneId: "uP" }).record?.password).toEqual({
      kind: "firebase-scrypt",
      hash: "cGhvbmU=",
      salt: "cw==",
    });
  });

  it("accepts the instants Firestore and exports write", () => {
    const at = (v: unknown) => read({ userPhoneId: "uP", lastLoginAt: v }).record?.lastLoginAt;
    expect(at({ seconds: 1_700_000_000 })).toBe("2023-11-14T22:13:20.000Z");
    expect(at("2024-01-02T03:04:05.000Z")).toBe("2024-01-02T03:04:05.000Z");
    expect(at(1_700_000_000_000)).toBe("2023-11-14T22:13:20.000Z");
    expect(at("2024/01/02 08:00")).toBe("2024-01-02T00:00:00.000Z");
    // None in the document: the latest sign-in of its auth users.
    expect(at(undefined)).toBe(new Date(1_710_000_000_000).toISOString());
  });

  it("refuses what is not a document, or has no id", () => {
    expect(read(["x"])).toEqual({
      record: null,
      problems: [{ field: "document", code: "not_an_object", severity: "reject" }],
    });
    expect(read({ phoneNumber: "0912345678" }, " ")).toEqual({
      record: null,
      problems: [{ field: "documentId", code: "external_id_missing", severity: "reject" }],
    });
  });

  it("refuses a member without a usable phone", () => {
    expect(codes({ userEmailId: "uE" })).toEqual(["phoneNumber:phone_missing:reject"]);
    expect(codes({ phoneNumber: "12345" })).toEqual(["phoneNumber:phone_invalid:reject"]);
  });

  it("notes an auth user missing from users.json and an unreadable password", () => {
    const missing = read({ userEmailId: "ghost", phoneNumber: "0912345678" });
    expect(missing.problems).toEqual([{ field: "userEmailId", code: "auth_user_missing", severity: "note" }]);
    expect(missing.record).toMatchObject({ password: null, lineUserId: null, extra: { userEmailId: "ghost" } });
    expect(codes({ userEmailId: "uBad", phoneNumber: "0912345678" })).toEqual(["password:password_unreadable:note"]);
  });

  it("notes unreadable optional fields and keeps them in extra", () => {
    const { record, problems } = read({
      phoneNumber: "0912345678",
      email: "nope",
      gender: "?",
      memberLevel: "鑽石",
      birthday: "1986-13-01",
      taxIdNumber: "12345678",
      einvoiceCarrier: "abc",
    });
    expect(problems.map((p) => `${p.code}:${p.severity}`)).toEqual([
      "email_invalid:note",
      "gender_unknown:note",
      "tier_unknown:note",
      "birthday_invalid:note",
      "tax_id_invalid:note",
      "carrier_invalid:note",
    ]);
    expect(record?.extra).toEqual({
      email: "nope",
      gender: "?",
      memberLevel: "鑽石",
      birthday: "1986-13-01",
      taxIdNumber: "12345678",
      einvoiceCarrier: "abc",
    });
  });

  it("refuses unreadable points or expiry, and notes an expiry in the past", () => {
    expect(codes({ phoneNumber: "0912345678", points: -3 })).toEqual(["points:points_invalid:reject"]);
    expect(codes({ phoneNumber: "0912345678", points: 2.5 })).toEqual(["points:points_invalid:reject"]);
    expect(codes({ phoneNumber: "0912345678", pointsLastDay: "later" })).toEqual([
      "pointsLastDay:expiry_invalid:reject",
    ]);
    expect(codes({ phoneNumber: "0912345678", points: "10", pointsLastDay: { _seconds: 1_600_000_000 } })).toEqual([
      "pointsLastDay:expiry_past:note",
    ]);
  });

  it("reads a birthday given as a day or a timestamp, and disabled flags", () => {
    expect(read({ phoneNumber: "0912345678", birthday: "1986/03/02", disabled: true }).record).toMatchObject({
      birthday: "1986-03-02",
      disabled: true,
    });
    expect(read({ phoneNumber: "0912345678", birthday: { _seconds: 510_076_800 } }).record?.birthday).toBe(
      "1986-03-02",
    );
  });

  it("emits only known problem codes", () => {
    const all: ImportProblemCode[] = [];
    for (const raw of [{}, { userEmailId: "ghost", userPhoneId: "uBad", phoneNumber: "x", points: "-1" }]) {
      all.push(...read(raw).problems.map((p) => p.code));
    }
    expect(all).toEqual([
      "phone_missing",
      "auth_user_missing",
      "phone_invalid",
      "points_invalid",
      "password_unreadable",
    ]);
  });
});

describe("firebaseUsers, keyed by uid", () => {
  it("takes the key as the uid when an entry has no localId", async () => {
    const list = await users(JSON.stringify({ users: { uA: { email: "a@b.tw" }, uB: { localId: "uB" } } }));
    expect(list.map((u) => u.localId)).toEqual(["uA", "uB"]);
  });
});

describe("firebaseMembers, Firestore REST listing", () => {
  it("reads documents as the REST API lists them: id from the name, typed values unwrapped", async () => {
    const listing = {
      documents: [
        {
          name: "projects/han/databases/(default)/documents/memberList/abc123",
          fields: {
            userEmailId: { stringValue: "uE" },
            name: { mapValue: { fields: { zh: { stringValue: "王小明" } } } },
            points: { integerValue: "120" },
            disabled: { booleanValue: false },
            lastLoginAt: { timestampValue: "2024-01-02T03:04:05Z" },
            tags: { arrayValue: { values: [{ stringValue: "vip" }] } },
            note: { nullValue: null },
          },
          createTime: "2020-01-01T00:00:00Z",
        },
      ],
    };
    const [member] = await members(JSON.stringify(listing));
    expect(member?.documentId).toBe("abc123");
    expect(member?.raw).toEqual({
      userEmailId: "uE",
      name: { zh: "王小明" },
      points: 120,
      disabled: false,
      lastLoginAt: "2024-01-02T03:04:05Z",
      tags: ["vip"],
      note: null,
      createdAt: "2020-01-01T00:00:00Z",
    });
    const { record } = readFirebaseMember(member as { documentId: string; raw: unknown }, authUsers, now);
    expect(record).toMatchObject({
      externalId: "abc123",
      nameZh: "王小明",
      points: 120,
      joinedAt: "2020-01-01T00:00:00.000Z",
    });
  });
});

describe("firebaseMembers, a failing input", () => {
  it("passes the input's own error through", async () => {
    const limit = new Error("file_too_large");
    async function* input(): AsyncGenerator<Uint8Array> {
      yield new TextEncoder().encode('[{"documentId":"a"},');
      throw limit;
    }
    await expect(collect(firebaseMembers(input()))).rejects.toBe(limit);
  });
});
