/**
 * The one shape every import source is read into (issue 35, ADR 038): a Firebase member document with its
 * auth users, or a CSV row through the admin's column mapping, becomes an `ImportRecord` plus the problems
 * found while reading it. The engine (runs.server.ts) matches, checks and stores records; it never looks at
 * a source's own format. Client-safe: the console shows records in the preview.
 */

export const IMPORT_TIERS = ["basic", "silver", "gold"] as const;
export type ImportTier = (typeof IMPORT_TIERS)[number];

export const IMPORT_CONSENT_KINDS = ["marketing_sms", "marketing_email", "marketing_line"] as const;
export type ImportConsentKind = (typeof IMPORT_CONSENT_KINDS)[number];

/** A consent as the old system recorded it: only imported with its date and channel (個資法: none invented). */
export type ImportConsent = {
  kind: ImportConsentKind;
  granted: boolean;
  /** ISO instant the old system recorded. */
  at: string;
  /** How it was given there, as the file says (e.g. "shopline", "store", "web"). */
  channel: string;
};

/** A Firebase modified-scrypt password (the project's parameters travel with the run: hash-config). */
export type ImportPassword = { kind: "firebase-scrypt"; hash: string; salt: string };

export type ImportRecord = {
  /** The old system's id: with the run's source, the key that makes a rerun change nothing. */
  externalId: string;
  /** E.164 through normalizeTaiwanMobile; null when the source has none (the row is then refused). */
  phoneNumber: string | null;
  /** Lowercased. */
  email: string | null;
  emailVerified: boolean;
  nameZh: string | null;
  gender: "male" | "female" | "undisclosed" | null;
  /** YYYY-MM-DD. */
  birthday: string | null;
  tier: ImportTier | null;
  /** Opening balance: a whole number ≥ 0. */
  points: number;
  /** The last day (Taipei, inclusive) the opening balance can be used; null = the programme's default expiry. */
  pointsLastDay: string | null;
  companyName: string | null;
  /** 統一編號, checked by isValidTaxIdNumber. */
  taxIdNumber: string | null;
  /** 手機條碼 (/ + 7), checked by isValidEinvoiceCarrier. */
  einvoiceCarrier: string | null;
  disabled: boolean;
  consents: ImportConsent[];
  password: ImportPassword | null;
  /** The LINE user id (Firebase: providerUserInfo of an oidc.line provider, its rawId). */
  lineUserId: string | null;
  /** ISO instants from the old system. */
  joinedAt: string | null;
  lastLoginAt: string | null;
  /** Every field of the old record that has no column here: kept (member_source.data), never dropped. */
  extra: Record<string, unknown>;
};

/**
 * Why a row is refused (`reject`) or what the reader noticed (`note`). Codes are stable: the console shows
 * `console.import.problem.<code>`, the rejected-rows CSV writes the code and the words.
 */
export const IMPORT_PROBLEM_CODES = [
  "phone_missing",
  "phone_invalid",
  "email_invalid",
  "name_missing",
  "tax_id_invalid",
  "carrier_invalid",
  "birthday_invalid",
  "gender_unknown",
  "tier_unknown",
  "points_invalid",
  "expiry_invalid",
  /** A note, not a refusal: the balance is booked and expires at once. */
  "expiry_past",
  "consent_invalid",
  "external_id_missing",
  "duplicate_in_file",
  /** The phone belongs to another member than the one the row matched by e-mail. */
  "phone_taken",
  "email_taken",
  "line_taken",
  /** A Firebase member document whose auth user is not in users.json (no password, no LINE). */
  "auth_user_missing",
  /** The password hash cannot be read (bad base64, no salt): the member claims the account by SMS code. */
  "password_unreadable",
  "not_an_object",
] as const;
export type ImportProblemCode = (typeof IMPORT_PROBLEM_CODES)[number];

export type ImportProblem = { field: string; code: ImportProblemCode; severity: "reject" | "note" };

/** What reading one source record gives: a record (null when it cannot be read at all) and its problems. */
export type ReadResult = { record: ImportRecord | null; problems: ImportProblem[] };

/** The fields a CSV column can be mapped to (the console's mapping step; each at most once). */
export const CSV_TARGETS = [
  "externalId",
  "phoneNumber",
  "nameZh",
  "email",
  "birthday",
  "gender",
  "tier",
  "points",
  "pointsLastDay",
  "taxIdNumber",
  "companyName",
  "einvoiceCarrier",
  "marketingSms",
  "marketingEmail",
  "marketingLine",
  "consentDate",
  "consentChannel",
] as const;
export type CsvTarget = (typeof CSV_TARGETS)[number];

/** header → target (or "ignore": kept in extra). */
export type CsvMapping = Record<string, CsvTarget | "ignore">;

export function emptyRecord(externalId: string): ImportRecord {
  return {
    externalId,
    phoneNumber: null,
    email: null,
    emailVerified: false,
    nameZh: null,
    gender: null,
    birthday: null,
    tier: null,
    points: 0,
    pointsLastDay: null,
    companyName: null,
    taxIdNumber: null,
    einvoiceCarrier: null,
    disabled: false,
    consents: [],
    password: null,
    lineUserId: null,
    joinedAt: null,
    lastLoginAt: null,
    extra: {},
  };
}

/** A Firebase project's password-hash parameters, as the console shows them (hash.json, base64 values). */
export type FirebaseHashConfig = {
  /** base64_signer_key */
  signerKey: string;
  /** base64_salt_separator */
  saltSeparator: string;
  rounds: number;
  memCost: number;
};
