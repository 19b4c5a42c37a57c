// Generated import files for `npm run bench:import` (issue 35, ADR 038): a CSV of another CRM and a Firebase export
// (users.json + memberList NDJSON), written streaming to disk (never a whole file in memory, so 1,000,000 rows cost
// what 100 do). Every member has an opening balance; a few rows are made bad on purpose (as real exports are), so the
// dry run and the rejected-rows CSV have work: every 1,000th row an invalid phone, every 997th row the phone of the
// row before it (duplicate_in_file).
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { createWriteStream } from "node:fs";

/** Writes lines from a generator to a file, waiting for the stream to drain (bounded memory). */
async function writeLines(file, lines) {
  const out = createWriteStream(file);
  let buffered = "";
  for (const line of lines) {
    buffered += line;
    if (buffered.length >= 1 << 16) {
      if (!out.write(buffered)) await once(out, "drain");
      buffered = "";
    }
  }
  if (buffered) out.write(buffered);
  out.end();
  await once(out, "finish");
  return out.bytesWritten;
}

/** 09 + eight digits from the row number: unique, valid Taiwan mobiles. */
export const phoneOf = (i) => `09${String(10_000_000 + i).slice(-8)}`;

/** The Firebase file's phones start 5,000,000 after the CSV's: the two variants create members, not merges. */
export const FIREBASE_PHONE_OFFSET = 5_000_000;

function phoneFor(i, offset = 0) {
  if (i % 1000 === 999) return "02-2345-6789"; // a landline: phone_invalid
  if (i % 997 === 996) return phoneOf(offset + i - 1); // the row before's phone: duplicate_in_file
  return phoneOf(offset + i);
}

const SURNAMES = "陳林黃張李王吳劉蔡楊許鄭謝郭洪曾邱廖賴周";
const GIVEN = "怡君雅婷家豪志明淑芬俊傑美玲宗翰佳穎冠宇詩涵建宏";
const nameOf = (i) =>
  `${SURNAMES[i % SURNAMES.length]}${GIVEN[(i * 7) % GIVEN.length]}${GIVEN[(i * 13 + 3) % GIVEN.length]}`;
const tierOf = (i) => (i % 10 === 0 ? "gold" : i % 4 === 0 ? "silver" : "basic");
const pointsOf = (i) => (i * 37) % 5000;
/** A Taipei day in 2027 or 2028 (in the future for the bench's life), one row in 500 in the past (expiry_past). */
function lastDayOf(i) {
  if (i % 500 === 0) return "2025-12-31";
  const month = String((i % 12) + 1).padStart(2, "0");
  return `${2027 + (i % 2)}-${month}-28`;
}

const csvHeaders = ["會員編號", "手機", "姓名", "Email", "生日", "性別", "會員等級", "點數", "點數到期日"];
/** The mapping the bench passes (`--map`), so its figures do not depend on the guess. */
export const CSV_MAP =
  "會員編號=externalId,手機=phoneNumber,姓名=nameZh,Email=email,生日=birthday,性別=gender,會員等級=tier,點數=points,點數到期日=pointsLastDay";

function* csvLines(rows) {
  yield `${csvHeaders.join(",")}\r\n`;
  for (let i = 1; i <= rows; i++) {
    const birthday = `19${60 + (i % 40)}-${String((i % 12) + 1).padStart(2, "0")}-${String((i % 28) + 1).padStart(2, "0")}`;
    yield `SL${String(i).padStart(8, "0")},${phoneFor(i)},${nameOf(i)},${i % 3 === 0 ? `m${i}@example.com` : ""},${birthday},${i % 2 ? "女" : "男"},${tierOf(i)},${pointsOf(i)},${lastDayOf(i)}\r\n`;
  }
}

/** A SHOPLINE-like member CSV (UTF-8 with BOM). Returns its size in bytes. */
export function writeCsv(file, rows) {
  return writeLines(
    file,
    (function* () {
      yield "\uFEFF";
      yield* csvLines(rows);
    })(),
  );
}

const b64 = (n) => randomBytes(n).toString("base64");

/**
 * `firebase auth:export --format=json`: {"users":[…]} — one e-mail user per member (password hash and salt: random,
 * so nobody's password can be checked, as the bench gives no --sample), every 5th member also a LINE provider.
 */
export function writeFirebaseUsers(file, rows) {
  return writeLines(
    file,
    (function* () {
      yield '{"users":[\n';
      for (let i = 1; i <= rows; i++) {
        const user = {
          localId: `uid-e-${i}`,
          email: `fb${i}@example.com`,
          emailVerified: i % 2 === 0,
          passwordHash: b64(64),
          salt: b64(12),
          createdAt: String(1_600_000_000_000 + i * 1000),
          lastSignedInAt: String(1_700_000_000_000 + i * 1000),
          disabled: false,
          providerUserInfo:
            i % 5 === 0
              ? [{ providerId: "oidc.line", rawId: `U${i.toString(16).padStart(32, "0")}`, displayName: nameOf(i) }]
              : [{ providerId: "password", rawId: `fb${i}@example.com`, email: `fb${i}@example.com` }],
        };
        yield `${i > 1 ? ",\n" : ""}${JSON.stringify(user)}`;
      }
      yield "\n]}\n";
    })(),
  );
}

/** The memberList collection as NDJSON: one document a line, its auth user by `userEmailId`. */
export function writeFirebaseMembers(file, rows) {
  return writeLines(
    file,
    (function* () {
      for (let i = 1; i <= rows; i++) {
        const doc = {
          documentId: `doc-${i}`,
          userEmailId: `uid-e-${i}`,
          name: { zh: nameOf(i) },
          gender: i % 2 ? "female" : "male",
          phoneNumber: phoneFor(i, FIREBASE_PHONE_OFFSET),
          email: `fb${i}@example.com`,
          disabled: false,
          memberLevel: tierOf(i),
          lastLoginAt: new Date(1_700_000_000_000 + i * 1000).toISOString(),
          points: pointsOf(i),
          pointsLastDay: lastDayOf(i),
          favouriteStore: `store-${i % 10}`,
        };
        yield `${JSON.stringify(doc)}\n`;
      }
    })(),
  );
}

/** The rows the generators make bad: invalid phones and duplicates among `rows`. */
export function expectedRejects(rows) {
  let n = 0;
  for (let i = 1; i <= rows; i++) if (i % 1000 === 999 || i % 997 === 996) n++;
  return n;
}
