/**
 * The original system's export (issue 35, ADR 038): Firebase Authentication users (`users.json`, as
 * `firebase auth:export --format=json` writes it), the Firestore collection `memberList` (JSON or NDJSON),
 * and the project's password-hash parameters (`hash.json`). Streamed with the incremental scanner of
 * json-items.ts; pure and client-safe.
 */
import { isValidEinvoiceCarrier, isValidTaxIdNumber, normalizeTaiwanMobile } from "~/domain/members/taiwan";
import { taipeiIsoDate } from "~/lib/time";
import { ImportFileError } from "./errors";
import { jsonItems } from "./json-items";
import {
  emptyRecord,
  type FirebaseHashConfig,
  type ImportPassword,
  type ImportProblem,
  type ImportProblemCode,
  type ReadResult,
} from "./record";
import { parseBirthday, parseEmail, parseGender, parseInstant, parseTier, readPointsBalance } from "./values";

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/** Standard or URL-safe base64 that decodes to at least one byte. */
export function isBase64(value: unknown): value is string {
  if (typeof value !== "string") return false;
  const v = value.trim();
  if (!v || !BASE64.test(v)) return false;
  const unpadded = v.replace(/=+$/, "");
  return unpadded.length % 4 !== 1;
}

/**
 * hash.json as the Firebase console shows it (Authentication → Users → ⋮ → Password hash parameters):
 * `{"hash_config": {"algorithm": "SCRYPT", "base64_signer_key": …, "base64_salt_separator": …, "rounds": 8,
 * "mem_cost": 14}}`, with or without the `hash_config` wrapper; camelCase names are accepted too.
 */
export function parseHashConfig(text: string): FirebaseHashConfig | { error: "hash_config_invalid" } {
  const invalid = { error: "hash_config_invalid" } as const;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch {
    return invalid;
  }
  if (!parsed || typeof parsed !== "object") return invalid;
  let o = parsed as Record<string, unknown>;
  const wrapped = o.hash_config ?? o.hashConfig;
  if (wrapped && typeof wrapped === "object") o = wrapped as Record<string, unknown>;
  const algorithm = o.algorithm;
  if (typeof algorithm === "string" && algorithm.toUpperCase() !== "SCRYPT") return invalid;
  const signerKey = o.base64_signer_key ?? o.signerKey ?? o.base64SignerKey;
  const saltSeparator = o.base64_salt_separator ?? o.saltSeparator ?? o.base64SaltSeparator ?? "";
  const rounds = Number(o.rounds);
  const memCost = Number(o.mem_cost ?? o.memCost ?? o.memoryCost);
  if (!isBase64(signerKey)) return invalid;
  if (typeof saltSeparator !== "string" || (saltSeparator !== "" && !isBase64(saltSeparator))) return invalid;
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > 8) return invalid;
  if (!Number.isInteger(memCost) || memCost < 1 || memCost > 14) return invalid;
  return { signerKey: signerKey.trim(), saltSeparator: saltSeparator.trim(), rounds, memCost };
}

async function* utf8(input: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder("utf-8");
  for await (const chunk of input) {
    const s = decoder.decode(chunk, { stream: true });
    if (s) yield s;
  }
  const rest = decoder.decode();
  if (rest) yield rest;
}

/**
 * users.json streamed: one entry per user with a `localId` (or `uid`, or its key in an object keyed by uid;
 * entries without any are not users and are skipped). `line` is where the user starts in the file.
 */
export async function* firebaseUsers(
  input: AsyncIterable<Uint8Array>,
): AsyncGenerator<{ line: number; localId: string; raw: unknown }> {
  for await (const item of jsonItems(utf8(input))) {
    const v = item.value as Record<string, unknown> | null;
    if (!v || typeof v !== "object" || Array.isArray(v)) continue;
    const localId =
      typeof v.localId === "string" && v.localId ? v.localId : typeof v.uid === "string" && v.uid ? v.uid : item.key;
    if (!localId) continue;
    yield { line: item.line, localId, raw: v };
  }
}

const ID_FIELDS = ["documentId", "id", "__id", "_id"] as const;

/**
 * memberList streamed: a JSON array, an object with an array property, an object keyed by document id, or
 * NDJSON. documentId from the field `documentId`, `id`, `__id` (or `_id`), else the key; "" when there is
 * none (readFirebaseMember then refuses the row).
 */
export async function* firebaseMembers(
  input: AsyncIterable<Uint8Array>,
): AsyncGenerator<{ line: number; documentId: string; raw: unknown }> {
  for await (const item of jsonItems(utf8(input))) {
    let documentId = "";
    const rest = fromFirestoreRest(item.value);
    const v = rest ? rest.raw : item.value;
    if (rest) documentId = rest.documentId;
    if (v && typeof v === "object" && !Array.isArray(v)) {
      const o = v as Record<string, unknown>;
      for (const f of documentId ? [] : ID_FIELDS) {
        const id = o[f];
        if ((typeof id === "string" && id.trim()) || typeof id === "number") {
          documentId = String(id).trim();
          break;
        }
      }
    }
    if (!documentId && item.key) documentId = item.key;
    yield { line: item.line, documentId, raw: v };
  }
}

/**
 * A document as the Firestore REST API lists it (`{"name": "projects/…/documents/memberList/<id>",
 * "fields": {"email": {"stringValue": …}, …}, "createTime": …}`) → its id and plain fields; null when the
 * value is not one.
 */
export function fromFirestoreRest(value: unknown): { documentId: string; raw: Record<string, unknown> } | null {
  const o = asObject(value);
  if (!o || typeof o.name !== "string" || !o.name.includes("/documents/")) return null;
  const fields = asObject(o.fields);
  if (!fields && o.fields !== undefined) return null;
  const raw: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields ?? {})) raw[k] = fromTypedValue(v);
  if (raw.createdAt === undefined && typeof o.createTime === "string") raw.createdAt = o.createTime;
  return { documentId: o.name.slice(o.name.lastIndexOf("/") + 1), raw };
}

function fromTypedValue(value: unknown): unknown {
  const o = asObject(value);
  if (!o) return value;
  if ("stringValue" in o) return o.stringValue;
  if ("integerValue" in o) {
    const n = Number(o.integerValue);
    return Number.isSafeInteger(n) ? n : o.integerValue;
  }
  if ("doubleValue" in o) return Number(o.doubleValue);
  if ("booleanValue" in o) return o.booleanValue;
  if ("nullValue" in o) return null;
  if ("timestampValue" in o) return o.timestampValue;
  if ("referenceValue" in o) return o.referenceValue;
  if ("bytesValue" in o) return o.bytesValue;
  if ("geoPointValue" in o) return o.geoPointValue;
  if ("arrayValue" in o) {
    const values = asObject(o.arrayValue)?.values;
    return Array.isArray(values) ? values.map(fromTypedValue) : [];
  }
  if ("mapValue" in o) {
    const fields = asObject(asObject(o.mapValue)?.fields) ?? {};
    return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, fromTypedValue(v)]));
  }
  return value;
}

/** Fields of a member document read into the record (everything else goes to extra). */
const READ_FIELDS = new Set([
  ...ID_FIELDS,
  "userEmailId",
  "userPhoneId",
  "phoneNumber",
  "email",
  "name",
  "gender",
  "memberLevel",
  "disabled",
  "lastLoginAt",
  "createdAt",
  "companyName",
  "taxIdNumber",
  "birthday",
  "einvoiceCarrier",
  "points",
  "pointsLastDay",
]);

type AuthUser = {
  localId?: unknown;
  email?: unknown;
  emailVerified?: unknown;
  phoneNumber?: unknown;
  passwordHash?: unknown;
  salt?: unknown;
  providerUserInfo?: unknown;
  createdAt?: unknown;
  lastSignedInAt?: unknown;
  disabled?: unknown;
};

function asObject(v: unknown): Record<string, unknown> | null {
  return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

function text(v: unknown): string | null {
  if (typeof v === "string") return v.trim() || null;
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  return null;
}

function truthy(v: unknown): boolean {
  return v === true || v === "true" || v === 1 || v === "1";
}

function lineIdOf(user: AuthUser | null): string | null {
  const providers = user?.providerUserInfo;
  if (!Array.isArray(providers)) return null;
  for (const p of providers) {
    const o = asObject(p);
    const providerId = o && typeof o.providerId === "string" ? o.providerId : "";
    if (providerId.startsWith("oidc.line") && typeof o?.rawId === "string" && o.rawId) return o.rawId;
  }
  return null;
}

/**
 * One member document and its auth users → record and problems (rules in SPEC-35 / ADR 038):
 * password from the e-mail user, else the phone user; LINE id from an `oidc.line*` provider of either;
 * phone from the document, else the phone user; e-mail from the document, else the e-mail user (verified
 * when it is the e-mail user's own address). Rejects: not an object, no document id, phone missing or
 * invalid, points unreadable, expiry unreadable. Notes: an auth user not in users.json, a password hash
 * that cannot be read, an unreadable e-mail / 統編 / carrier / birthday / gender / memberLevel (the tier is
 * then left to the next evaluation), an expiry in the past.
 */
export function readFirebaseMember(
  doc: { documentId: string; raw: unknown },
  authUsers: Map<string, unknown>,
  now: Date = new Date(),
): ReadResult {
  const problems: ImportProblem[] = [];
  const problem = (field: string, code: ImportProblemCode, severity: "reject" | "note" = "note") =>
    problems.push({ field, code, severity });

  const raw = asObject(doc.raw);
  if (!raw) {
    problem("document", "not_an_object", "reject");
    return { record: null, problems };
  }
  const documentId = doc.documentId.trim();
  if (!documentId) {
    problem("documentId", "external_id_missing", "reject");
    return { record: null, problems };
  }
  const record = emptyRecord(documentId);
  const extra: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) if (!READ_FIELDS.has(k)) extra[k] = v;

  const authUser = (field: "userEmailId" | "userPhoneId"): AuthUser | null => {
    const uid = text(raw[field]);
    if (!uid) return null;
    const user = asObject(authUsers.get(uid));
    if (!user) {
      problem(field, "auth_user_missing");
      extra[field] = uid;
      return null;
    }
    return user as AuthUser;
  };
  const emailUser = authUser("userEmailId");
  const phoneUser = authUser("userPhoneId");
  const users = [emailUser, phoneUser].filter((u): u is AuthUser => u !== null);

  // Phone.
  const phoneText = text(raw.phoneNumber) ?? text(phoneUser?.phoneNumber) ?? text(emailUser?.phoneNumber);
  if (!phoneText) problem("phoneNumber", "phone_missing", "reject");
  else {
    record.phoneNumber = normalizeTaiwanMobile(phoneText);
    if (!record.phoneNumber) {
      problem("phoneNumber", "phone_invalid", "reject");
      extra.phoneNumber = raw.phoneNumber ?? phoneText;
    }
  }

  // E-mail.
  const emailText = text(raw.email) ?? text(emailUser?.email);
  const email = parseEmail(emailText);
  if (email?.ok) {
    record.email = email.value;
    const userEmail = parseEmail(emailUser?.email);
    record.emailVerified = Boolean(
      userEmail?.ok && userEmail.value === email.value && truthy(emailUser?.emailVerified),
    );
  } else if (email) {
    problem("email", "email_invalid");
    extra.email = emailText;
  }

  // Name: {zh, en} or a plain string.
  const name = raw.name;
  const nameObject = asObject(name);
  record.nameZh = nameObject ? text(nameObject.zh) : text(name);
  if (nameObject) {
    const rest = Object.fromEntries(Object.entries(nameObject).filter(([k]) => k !== "zh"));
    if (Object.keys(rest).length > 0) extra.name = rest;
  }

  const gender = parseGender(raw.gender);
  if (gender?.ok) record.gender = gender.value;
  else if (gender) {
    problem("gender", "gender_unknown");
    extra.gender = raw.gender;
  }

  const tier = parseTier(raw.memberLevel);
  if (tier?.ok) record.tier = tier.value;
  else if (tier) {
    problem("memberLevel", "tier_unknown");
    extra.memberLevel = raw.memberLevel;
  }

  const birthdayText = text(raw.birthday) ?? parseInstantDay(raw.birthday);
  const birthday = birthdayText ? parseBirthday(birthdayText, now) : null;
  if (birthday?.ok) record.birthday = birthday.value;
  else if (birthday) {
    problem("birthday", "birthday_invalid");
    extra.birthday = raw.birthday;
  }

  record.companyName = text(raw.companyName);
  const taxId = text(raw.taxIdNumber)?.replace(/\s/g, "") ?? null;
  if (taxId) {
    if (isValidTaxIdNumber(taxId)) record.taxIdNumber = taxId;
    else {
      problem("taxIdNumber", "tax_id_invalid");
      extra.taxIdNumber = raw.taxIdNumber;
    }
  }
  const carrier = text(raw.einvoiceCarrier)?.replace(/\s/g, "").toUpperCase() ?? null;
  if (carrier) {
    if (isValidEinvoiceCarrier(carrier)) record.einvoiceCarrier = carrier;
    else {
      problem("einvoiceCarrier", "carrier_invalid");
      extra.einvoiceCarrier = raw.einvoiceCarrier;
    }
  }

  const lastDayText = text(raw.pointsLastDay) ?? parseInstantDay(raw.pointsLastDay);
  readPointsBalance(record, problem, raw.points, lastDayText, now);
  if (!lastDayText && raw.pointsLastDay !== undefined && raw.pointsLastDay !== null && raw.pointsLastDay !== "") {
    problem("pointsLastDay", "expiry_invalid", "reject");
  }

  record.disabled = truthy(raw.disabled);

  // Password: the e-mail user's, else the phone user's.
  const hashed = [emailUser, phoneUser].find((u) => u && text(u.passwordHash));
  if (hashed) {
    const hash = text(hashed.passwordHash);
    const salt = text(hashed.salt);
    if (hash && salt && isBase64(hash) && isBase64(salt)) {
      const password: ImportPassword = { kind: "firebase-scrypt", hash, salt };
      record.password = password;
    } else problem("password", "password_unreadable");
  }

  record.lineUserId = lineIdOf(emailUser) ?? lineIdOf(phoneUser);

  // Instants: the document's, else the auth users' (earliest creation, latest sign-in).
  const created = users.map((u) => parseInstant(u.createdAt)).filter((v): v is string => v !== null);
  record.joinedAt = parseInstant(raw.createdAt) ?? created.sort()[0] ?? null;
  const signedIn = users.map((u) => parseInstant(u.lastSignedInAt)).filter((v): v is string => v !== null);
  record.lastLoginAt = parseInstant(raw.lastLoginAt) ?? signedIn.sort().at(-1) ?? null;
  if (raw.createdAt !== undefined && !parseInstant(raw.createdAt)) extra.createdAt = raw.createdAt;
  if (raw.lastLoginAt !== undefined && !parseInstant(raw.lastLoginAt)) extra.lastLoginAt = raw.lastLoginAt;

  record.extra = extra;
  return { record, problems };
}

/** A Firestore timestamp or epoch given for a day → its Taipei day. */
function parseInstantDay(v: unknown): string | null {
  if (v === null || v === undefined || typeof v === "string") return null;
  const iso = parseInstant(v);
  return iso ? taipeiIsoDate(new Date(iso)) : null;
}

export { ImportFileError };
