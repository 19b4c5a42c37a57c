import { TIERS } from "@platform/db/schema/loyalty";
import type { CampaignAudience } from "@platform/db/schema/member-message-kinds";
import { member } from "@platform/db/schema/members";
import { sql } from "drizzle-orm";
import {
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

/**
 * Saved segments and the RFM summary (issue 38 part 6, docs/decisions/056-segments-and-rfm.md).
 *
 * A segment is a named audience: the campaign filters (`CampaignAudience`, the one filter definition), saved by an
 * admin and reused by campaigns. Its name is unique among the segments not archived, case and spacing aside
 * (`name_key`): two admins saving the same name at once, one wins and the other is told beside the field.
 */
export const segment = pgTable(
  "segment",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    name: text("name").notNull(),
    /** The name as compared: NFKC, trimmed, inner spaces as one, lower case (segments.server.ts `segmentNameKey`). */
    nameKey: text("name_key").notNull(),
    audience: jsonb("audience").$type<CampaignAudience>().notNull(),
    version: integer("version").notNull().default(1),
    createdBy: text("created_by").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    /** Archived segments leave the lists and the campaign's picker; their name may be used again. */
    archivedAt: timestamp("archived_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("segment_name_unique").on(t.nameKey).where(sql`${t.archivedAt} is null`),
    index("segment_updated_idx").on(t.updatedAt, t.id),
  ],
);

/**
 * One row per member with a purchase in the 12 months before `as_of` (Taipei days, refunds netted out), written
 * by the nightly job (`rfm_refresh(as_of)`, drizzle migration "segments"): the whole table replaced in one
 * statement's transaction. Scores 1–5 (5: most recent, most often, most money). Members without such a purchase
 * have no row and no RFM filter names them.
 *
 * `active` and `tier` copy the member's state (not disabled, not deleted; `loyalty_account.tier`, basic without an
 * account) so that a count by scores, groups and tiers is answered by this table alone (ADR 056, "Later"): the
 * nightly job writes them, and the triggers of migration "rfm-count" keep them current in the transaction of the
 * change (a member disabled, deleted or restored; a tier change).
 */
export const memberRfm = pgTable(
  "member_rfm",
  {
    memberId: uuid("member_id")
      .primaryKey()
      .references(() => member.id, { onDelete: "cascade" }),
    asOf: date("as_of", { mode: "string" }).notNull(),
    /** Taipei days from the last purchase day to `as_of` (≥ 1). */
    recencyDays: integer("recency_days").notNull(),
    /** Purchases in the window, a purchase refunded in full not counted. */
    frequency: integer("frequency").notNull(),
    /** NT$ net of refunds in the window. */
    monetary: integer("monetary").notNull(),
    r: smallint("r").notNull(),
    f: smallint("f").notNull(),
    m: smallint("m").notNull(),
    /** The member is neither disabled nor deleted (kept by trigger; an inactive member keeps its scores). */
    active: boolean("active").notNull().default(true),
    /** The member's tier, `basic` without a loyalty account (kept by trigger). */
    tier: text("tier", { enum: TIERS }).notNull().default("basic"),
  },
  (t) => [
    // The segment counts: the groups are rules on (r, f), the single-score filters one column each; the member id
    // last so that the semi-join reads the index alone.
    index("member_rfm_rf_idx").on(t.r, t.f, t.memberId),
    index("member_rfm_f_idx").on(t.f, t.memberId),
    index("member_rfm_m_idx").on(t.m, t.memberId),
    // The counts answered by this table alone (scores, groups, tiers): an index-only scan of the active rows.
    index("member_rfm_count_idx").on(t.r, t.f, t.m, t.tier).where(sql`${t.active}`),
  ],
);
