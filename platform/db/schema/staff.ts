import { authUser } from "@platform/db/schema/auth";
import { member } from "@platform/db/schema/members";
import { sql } from "drizzle-orm";
import {
  bigint,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

/**
 * Staff of the console (ADR 020). The login identity is the better-auth user (one person, one login,
 * possibly also a member); the console role is `auth_user.role` (`member` = no console). This row holds
 * what only staff have: the name shown in the console and whether the account is disabled.
 */
export const staffAccount = pgTable("staff_account", {
  userId: text("user_id")
    .primaryKey()
    .references(() => authUser.id, { onDelete: "cascade" }),
  displayName: text("display_name").notNull(),
  disabledAt: timestamp("disabled_at", { withTimezone: true }),
  /**
   * The staff code a till sends with a purchase (issue 36, ADR 042): 4–6 capital letters or digits, unique
   * (the brand is one tenant); set by an admin in the console. Null until one is set.
   */
  staffCode: text("staff_code").unique("staff_account_staff_code_unique"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** The stores a staff member works at (an admin works at every store and needs no rows here). */
export const staffStore = pgTable(
  "staff_store",
  {
    userId: text("user_id")
      .notNull()
      .references(() => staffAccount.userId, { onDelete: "cascade" }),
    storeId: text("store_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.storeId] })],
);

/**
 * Invitations: a single-use link valid for 72 hours; only a SHA-256 of its 256-bit token is stored.
 * Accepting it is one conditional update (accepted_at is null, not revoked, not expired).
 */
export const staffInvitation = pgTable(
  "staff_invitation",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    tokenHash: text("token_hash").notNull().unique(),
    /** Lowercased e-mail or E.164 phone: exactly one is set. */
    email: text("email"),
    phoneNumber: text("phone_number"),
    displayName: text("display_name").notNull(),
    role: text("role", { enum: ["staff", "manager", "admin"] }).notNull(),
    storeIds: text("store_ids").array().notNull().default(sql`'{}'::text[]`),
    /** Null for the first admin (created from the command line). */
    invitedByUserId: text("invited_by_user_id").references(() => authUser.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
    acceptedUserId: text("accepted_user_id").references(() => authUser.id, { onDelete: "set null" }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [index("staff_invitation_created_idx").on(t.createdAt)],
);

/**
 * The staff member's authenticator (TOTP, RFC 6238). The secret is encrypted (AES-256-GCM, a key
 * derived from the session secret); `confirmedAt` is null until a first code proved the enrolment.
 * `lastUsedStep` refuses a code that was already used (no replay within its 30-second window).
 */
export const staffTotp = pgTable("staff_totp", {
  userId: text("user_id")
    .primaryKey()
    .references(() => staffAccount.userId, { onDelete: "cascade" }),
  secretEncrypted: text("secret_encrypted").notNull(),
  confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
  lastUsedStep: bigint("last_used_step", { mode: "number" }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Recovery codes (shown once): an HMAC of each is stored; each opens one login. */
export const staffRecoveryCode = pgTable(
  "staff_recovery_code",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    userId: text("user_id")
      .notNull()
      .references(() => staffAccount.userId, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("staff_recovery_code_hash_uq").on(t.userId, t.codeHash)],
);

/**
 * Console sessions: separate from member sessions (their own cookie), shorter (idle 30 min, absolute
 * 12 h). A session is `pending` until the second factor was given; `secondFactorAt` is renewed when a
 * sensitive action asks for the code again. Only a SHA-256 of the cookie's token is stored.
 */
export const staffSession = pgTable(
  "staff_session",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    tokenHash: text("token_hash").notNull().unique(),
    userId: text("user_id")
      .notNull()
      .references(() => staffAccount.userId, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    secondFactorAt: timestamp("second_factor_at", { withTimezone: true }),
    /** Wrong second-factor codes on this session (it ends after too many). */
    failedCodes: integer("failed_codes").notNull().default(0),
    currentStoreId: text("current_store_id"),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
  },
  (t) => [index("staff_session_user_idx").on(t.userId)],
);

/**
 * Point adjustments made in the console (issue 13, ADR 023). One row per adjustment: booked at once
 * (`booked`, within the requester's limit) or `pending` until a second admin approves (`booked`) or
 * someone rejects it (`rejected`). The decision is one conditional update (status = 'pending' and
 * requested_by <> the approver), so racing approvals book once; the check constraint refuses a
 * requester approving their own adjustment even if a caller forgot.
 */
export const pointAdjustment = pgTable(
  "point_adjustment",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    /** One per console form: a double submit or a retry finds the first row. */
    requestKey: text("request_key").notNull().unique(),
    memberId: uuid("member_id")
      .notNull()
      .references(() => member.id, { onDelete: "cascade" }),
    amount: integer("amount").notNull(),
    /** A code of the fixed list (goodwill, correction, missed_purchase, promotion, other). */
    reason: text("reason").notNull(),
    /** The requester's own words. */
    detail: text("detail").notNull().default(""),
    status: text("status", { enum: ["pending", "booked", "rejected"] }).notNull(),
    /** User ids as in the audit log (no foreign key: a person's later deletion must not be blocked). */
    requestedBy: text("requested_by").notNull(),
    requestedRole: text("requested_role").notNull(),
    /** The requester's store at the time (null for an admin without one). */
    storeId: text("store_id"),
    requestedAt: timestamp("requested_at", { withTimezone: true }).notNull(),
    decidedBy: text("decided_by"),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    /** The ledger entry it booked. */
    entryId: uuid("entry_id"),
  },
  (t) => [
    index("point_adjustment_pending_idx").on(t.requestedAt).where(sql`${t.status} = 'pending'`),
    index("point_adjustment_member_idx").on(t.memberId, t.requestedAt),
    check("point_adjustment_amount_ck", sql`${t.amount} <> 0`),
    check(
      "point_adjustment_four_eyes_ck",
      sql`${t.status} <> 'booked' or ${t.decidedBy} is null or ${t.decidedBy} <> ${t.requestedBy}`,
    ),
  ],
);

/** Console settings an admin changes (the manager's adjustment limit): one row per key. */
export const consoleSetting = pgTable("console_setting", {
  key: text("key").primaryKey(),
  value: jsonb("value").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  updatedBy: text("updated_by").references(() => authUser.id, { onDelete: "set null" }),
});
