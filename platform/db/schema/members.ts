import { authUser } from "@platform/db/schema/auth";
import { sql } from "drizzle-orm";
import {
  boolean,
  date,
  index,
  integer,
  pgSequence,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

/** Member numbers: HL + 8 digits from this sequence (never reused, even after deletion). */
export const memberNumberSeq = pgSequence("member_number_seq", { startWith: 10000001 });

/** The member record (`memberList` in the original specification). */
export const member = pgTable(
  "member",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    userId: text("user_id")
      .notNull()
      .unique()
      .references(() => authUser.id, { onDelete: "cascade" }),
    memberNumber: text("member_number").notNull().unique(),
    nameZh: text("name_zh").notNull(),
    gender: text("gender", { enum: ["male", "female", "undisclosed"] })
      .notNull()
      .default("male"),
    birthday: date("birthday", { mode: "string" }),
    /** When the birthday on record was entered (sign-up or a later change): the 30-day birthday rule. */
    birthdayChangedAt: timestamp("birthday_changed_at", { withTimezone: true }),
    /** E.164, e.g. +886912345678 (the counter finds members by phone). */
    phoneNumber: text("phone_number").notNull().unique(),
    /** Lowercased; verified before it is stored here. */
    email: text("email").unique(),
    /** An address given but not yet verified by code; it becomes `email` (a login) once verified. */
    pendingEmail: text("pending_email"),
    companyName: text("company_name"),
    taxIdNumber: text("tax_id_number"),
    einvoiceCarrier: text("einvoice_carrier"),
    /**
     * Whether the till may read the carrier and 統編 (the member center's switch; ADR 041). On by default: the
     * member entered them to have their e-invoices issued to them.
     */
    einvoiceSharing: boolean("einvoice_sharing").notNull().default(true),
    city: text("city"),
    district: text("district"),
    postalCode: text("postal_code"),
    street: text("street"),
    marketingSms: boolean("marketing_sms").notNull().default(false),
    marketingEmail: boolean("marketing_email").notNull().default(false),
    marketingLine: boolean("marketing_line").notNull().default(false),
    memberLevel: text("member_level").notNull().default("basic"),
    disabled: boolean("disabled").notNull().default(false),
    /** The language of the member's messages (the site's language at sign-up, then whenever they switch it). */
    locale: text("locale", { enum: ["zh-TW", "en"] })
      .notNull()
      .default("zh-TW"),
    signupMethod: text("signup_method", { enum: ["phone", "line"] })
      .notNull()
      .default("phone"),
    lastLoginAt: timestamp("last_login_at", { withTimezone: true }),
    /**
     * Set when the member deleted their account (ADR 015): the row stays, anonymised, so the
     * points ledger and purchases keep a (nameless) owner for accounting.
     */
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * The name's single characters and pairs of characters (lowercased), for the console's search by part of a
     * Chinese name (雅婷 finds 林雅婷) through a GIN index: works in any collation, on PostgreSQL and PGlite alike
     * (pg_trgm's trigrams need three characters and a locale that knows CJK letters). Computed by the database.
     */
    nameGrams: text("name_grams").array().generatedAlwaysAs(sql`member_name_grams(name_zh)`),
    /**
     * The member's consultant (專屬顧問, issue 36, ADR 042): a staff member's user id, set at the counter or in the
     * console (audited). No foreign key, like the other staff references: a person's later deletion is not blocked.
     */
    consultantUserId: text("consultant_user_id"),
    /**
     * The member's referral code (issue 38, ADR 053): 10 random characters from an alphabet without look-alikes,
     * made by the database for every member (the migration gives existing members theirs).
     */
    referralCode: text("referral_code").notNull().unique().default(sql`member_referral_code()`),
  },
  (t) => [
    index("member_created_idx").on(t.createdAt),
    index("member_name_grams_idx").using("gin", t.nameGrams),
    /** A consultant's list of their members (ADR 042). */
    index("member_consultant_idx").on(t.consultantUserId, t.createdAt).where(sql`${t.consultantUserId} is not null`),
    /**
     * The active members' ids (ADR 056): an audience's member rows are these (`audienceWhere`), so a count of RFM
     * filters joins the matching `member_rfm` rows to this narrow index (index-only) instead of scanning `member`.
     */
    index("member_active_id_idx").on(t.id).where(sql`${t.disabled} = false and ${t.deletedAt} is null`),
  ],
);

/**
 * The store of the member's latest purchase (by purchase time; loyalty_account.last_purchase_at), for the console's
 * "store of last purchase" filter (ADR 024 addendum): written in the purchase's transaction, under the account's
 * lock, only when the store changes; a member who never bought has no row. A narrow row of its own, not a column of
 * `member` (ADR 039 "Later (2026-12-07, the member's last store)", migration 0062): the filter's index made every
 * store change a non-HOT update of the wide member row, with an entry in each of its indexes. `member_created_at`
 * is the member's `created_at` (never changed), so that one index serves the filter in the list's order (newest
 * members first, `member_last_store_store_idx`).
 */
export const memberLastStore = pgTable(
  "member_last_store",
  {
    memberId: uuid("member_id")
      .primaryKey()
      .references(() => member.id, { onDelete: "cascade" }),
    storeId: text("store_id").notNull(),
    memberCreatedAt: timestamp("member_created_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("member_last_store_store_idx").on(t.storeId, t.memberCreatedAt, t.memberId)],
);

/** Notes staff keep about a member (console only; never shown to the member). */
export const memberNote = pgTable(
  "member_note",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    memberId: uuid("member_id")
      .notNull()
      .references(() => member.id, { onDelete: "cascade" }),
    /** The staff member's user id (no foreign key: a later deletion of the person must not be blocked). */
    authorUserId: text("author_user_id").notNull(),
    body: text("body").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("member_note_member_idx").on(t.memberId, t.createdAt)],
);

/** Every consent given or withdrawn, with the version of the text (個資法 §8 evidence). */
export const memberConsent = pgTable(
  "member_consent",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    userId: text("user_id")
      .notNull()
      .references(() => authUser.id, { onDelete: "cascade" }),
    kind: text("kind", {
      enum: ["terms", "privacy", "marketing_sms", "marketing_email", "marketing_line", "einvoice_sharing"],
    }).notNull(),
    version: text("version").notNull(),
    granted: boolean("granted").notNull(),
    /**
     * How it was given or withdrawn (issue 16: refusals are recorded with time and channel): `signup`,
     * `member-center`, `unsubscribe-link`, `one-click` (RFC 8058), `line-unfollow`; null for older rows.
     */
    source: text("source"),
    ipAddress: text("ip_address"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("member_consent_user_idx").on(t.userId, t.kind)],
);

/**
 * One-time codes: only an HMAC of the code is stored; single use; bound to target + purpose. One row
 * per target and purpose: a new code replaces the previous one in a single upsert, which is also
 * what makes the resend cooldown atomic (ADR 018).
 */
export const oneTimeCode = pgTable(
  "one_time_code",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    purpose: text("purpose").notNull(),
    /** E.164 phone number or lowercased e-mail address. */
    target: text("target").notNull(),
    codeHash: text("code_hash").notNull(),
    attempts: integer("attempts").notNull().default(0),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    consumedAt: timestamp("consumed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("one_time_code_target_purpose_uq").on(t.target, t.purpose)],
);

/**
 * Fixed-window counters for rate limits, shared by every app instance (an atomic upsert per hit).
 * key: e.g. "otp:phone:+886912345678:hour"; windowStart: the window's first instant.
 */
export const rateLimitCounter = pgTable(
  "rate_limit_counter",
  {
    key: text("key").notNull(),
    windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
    count: integer("count").notNull().default(0),
    lastHitAt: timestamp("last_hit_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] }), index("rate_limit_counter_expires_idx").on(t.expiresAt)],
);

/**
 * A phone or browser holding an offline member card (ADR 043): its own secret, from which the device computes the
 * rotating card code without a network. The secret is kept encrypted (AES-256-GCM under a key derived from the
 * server secret), so a copy of the database alone cannot make card codes. `lastStep` is the last 30-second step a
 * code of this device was accepted for: one conditional UPDATE raises it, so a code is accepted at most once.
 * `sessionId`: the login that registered it (logging out of that session revokes it).
 */
export const memberDevice = pgTable(
  "member_device",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    memberId: uuid("member_id")
      .notNull()
      .references(() => member.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    secretEncrypted: text("secret_encrypted").notNull(),
    sessionId: text("session_id"),
    lastStep: integer("last_step").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [
    index("member_device_member_idx").on(t.memberId, t.createdAt),
    index("member_device_session_idx").on(t.sessionId),
  ],
);
