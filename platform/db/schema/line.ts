import { index, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * LINE ID tokens already accepted (SHA-256 of the raw token), kept until the token expires: a
 * token is accepted once, on any app instance (the primary key makes the second insert a no-op).
 */
export const lineIdTokenUse = pgTable(
  "line_id_token_use",
  {
    tokenHash: text("token_hash").primaryKey(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("line_id_token_use_expires_idx").on(t.expiresAt)],
);
