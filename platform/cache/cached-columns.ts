/**
 * Which columns of the purchase's tables a per-instance cache reads (ADR 026, ADR 039 "Later (2026-12-07,
 * statements)"). Migration 0057 fires these tables' cache-invalidation triggers on an update only when one of the
 * `cached` columns changed (`WHEN (OLD.c IS DISTINCT FROM NEW.c OR …)`); an update of the other columns sends no
 * notification, so a cache must never read them. Every column of each table is in exactly one of the two lists
 * (`server/cache-columns.integration.test.ts` holds the lists to the tables and the triggers' WHEN clauses to
 * `cached`): a new column fails that test until it is named here, and a cache that starts reading a column named
 * `notCached` must move it to `cached` and change the trigger with a migration.
 *
 * Readers: `member-summaries` (app/domain/loyalty/member-center.server.ts: the account's balance and tier, the
 * expiring lots, the 12-month spend, the activity list with each entry's purchase), `member-sessions`
 * (app/adapters/current-member.server.ts: the whole member row).
 */
export const CACHED_COLUMNS = {
  loyalty_account: {
    trigger: "loyalty_account_cache_update",
    cached: ["member_id", "balance", "tier"],
    notCached: {
      negative_since: "not in the member-center summary",
      tier_since: "the summary computes the tier's deadline from the spend, not from this date",
      last_downgrade_at: "not in the member-center summary",
      last_purchase_at: "the console's filter reads it from the database (the purchase's last purchase)",
      referral_pending: "not in the member-center summary",
      trade: "not in the member-center summary",
      updated_at: "bookkeeping",
    },
  },
  purchase: {
    trigger: "purchase_cache_update",
    cached: [
      "id",
      "member_id",
      "store_id",
      "receipt_number",
      "net_amount",
      "purchased_at",
      "refunded_amount",
      "points_spent_value",
    ],
    notCached: {
      points_earned: "the summary shows the entries' amounts, not the purchase's",
      points_reversed: "the summary shows the entries' amounts, not the purchase's",
      points_spent: "the summary shows the entries' amounts, not the purchase's",
      points_returned: "the summary shows the entries' amounts, not the purchase's",
      staff_user_id: "console reports only",
      api_key_id: "POS API only",
      created_at: "bookkeeping (the summary uses purchased_at)",
      idempotency_key: "POS API replays only (read from the database)",
      request_hash: "POS API replays only (read from the database)",
      answer: "POS API replays only (read from the database; the purchase's answer update)",
    },
  },
  point_entry: {
    trigger: "point_entry_cache_update",
    cached: ["id", "member_id", "kind", "amount", "reason", "purchase_id", "created_at"],
    notCached: {
      lot_expires_at: "the summary reads expiry from the lots",
      store_id: "the activity list names the purchase's store",
      receipt_number: "the activity list shows the purchase's receipt number",
      staff_user_id: "console only",
      api_key_id: "POS API only",
      coupon_id: "the wallet reads coupons from their own table",
      idempotency_key: "the ledger's retries only",
    },
  },
  point_lot: {
    trigger: "point_lot_cache_update",
    cached: ["member_id", "remaining", "expires_at"],
    notCached: {
      entry_id: "the summary sums lots by expiry",
      expired: "the summary reads remaining and expires_at",
    },
  },
  member: {
    trigger: "member_cache_update",
    cached: [
      "id",
      "user_id",
      "member_number",
      "name_zh",
      "gender",
      "birthday",
      "birthday_changed_at",
      "phone_number",
      "email",
      "pending_email",
      "company_name",
      "tax_id_number",
      "einvoice_carrier",
      "einvoice_sharing",
      "city",
      "district",
      "postal_code",
      "street",
      "marketing_sms",
      "marketing_email",
      "marketing_line",
      "member_level",
      "disabled",
      "locale",
      "signup_method",
      "last_login_at",
      "deleted_at",
      "created_at",
      "updated_at",
      "name_grams",
      "consultant_user_id",
      "referral_code",
    ],
    // The store of the last purchase, which a purchase moves, is not on this row (member_last_store, migration 0062).
    notCached: {},
  },
} as const satisfies Record<string, { trigger: string; cached: readonly string[]; notCached: Record<string, string> }>;
