import { staffAccount } from "@platform/db/schema/staff";
import { index, integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The first answer to each console form (ADR 022): every counter form carries a key made when it was
 * rendered, so a double tap, a slow network's retry or a reload books once and answers the first result
 * again. The same mechanism as the POS API's `api_idempotency`, keyed by the staff member instead of the
 * API key. A row without a status is a submission still running.
 */
export const consoleIdempotency = pgTable(
  "console_idempotency",
  {
    userId: text("user_id")
      .notNull()
      .references(() => staffAccount.userId, { onDelete: "cascade" }),
    key: text("key").notNull(),
    requestHash: text("request_hash").notNull(),
    status: integer("status"),
    response: jsonb("response"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index("console_idempotency_created_idx").on(t.createdAt)],
);
