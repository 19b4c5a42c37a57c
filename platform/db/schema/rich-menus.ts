import { sql } from "drizzle-orm";
import { customType, index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/** PostgreSQL `bytea`: a Buffer from postgres.js, a Uint8Array from PGlite; both read as Uint8Array. */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => "bytea",
});

/**
 * The LINE rich menu's states (ADR 049): a LINE user who is no member (`unlinked`: LINE's default rich menu), a
 * member (`member`), and a tier's own menu over the member's (`basic`, `silver`, `gold`, the tiers of loyalty.ts).
 */
export const RICH_MENU_STATES = ["unlinked", "member", "basic", "silver", "gold"] as const;
export type RichMenuState = (typeof RICH_MENU_STATES)[number];

/** One area of a rich menu as the console keeps it: the bounds and what a tap does. */
export type RichMenuAreaRecord = {
  x: number;
  y: number;
  width: number;
  height: number;
  /** `uri`: open the address; `card`: the member card in LIFF (its address chosen at publishing); `message`: send the text. */
  kind: "uri" | "card" | "message";
  value: string;
};

/**
 * The published rich menu of each state (one row a state): what the console published and the id LINE gave it.
 * Publishing again creates a new menu at LINE (LINE's menus cannot be changed) and replaces the row.
 */
export const richMenu = pgTable("rich_menu", {
  state: text("state", { enum: RICH_MENU_STATES }).primaryKey(),
  title: text("title").notNull(),
  chatBarText: text("chat_bar_text").notNull(),
  selected: integer("selected").notNull().default(0),
  width: integer("width").notNull(),
  height: integer("height").notNull(),
  areas: jsonb("areas").$type<RichMenuAreaRecord[]>().notNull(),
  imageType: text("image_type", { enum: ["image/png", "image/jpeg"] }).notNull(),
  image: bytea("image").notNull(),
  lineRichMenuId: text("line_rich_menu_id").notNull(),
  version: integer("version").notNull().default(1),
  publishedBy: text("published_by"),
  publishedAt: timestamp("published_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The rich-menu outbox, one row per LINE user (ADR 049): written by triggers on LINE linking and unlinking, member
 * creation, tier changes and follows (in the transaction of the change), and by publishing a menu. A worker claims
 * due rows with `skip locked`, asks which menu each user gets *then*, and links them at LINE in batches of 500.
 * `generation` grows with every enqueue, so a change made while a row is being sent leaves it pending.
 */
export const richMenuLink = pgTable(
  "rich_menu_link",
  {
    lineUserId: text("line_user_id").primaryKey(),
    status: text("status", { enum: ["pending", "sending", "done", "failed"] })
      .notNull()
      .default("pending"),
    generation: integer("generation").notNull().default(1),
    attempts: integer("attempts").notNull().default(0),
    dueAt: timestamp("due_at", { withTimezone: true }).notNull().defaultNow(),
    claimJob: uuid("claim_job"),
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
    /** The LINE rich menu id last linked to this user (null: none, the user sees the default menu). */
    linkedMenu: text("linked_menu"),
    error: text("error"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("rich_menu_link_due_idx").on(t.dueAt),
    // "Is a replaced menu still linked to anyone?" (the retired menus' clean-up) asks by menu.
    index("rich_menu_link_menu_idx").on(t.linkedMenu),
  ],
);

/**
 * Menus replaced or removed in the console (ADR 049): LINE keeps a channel's menus until they are deleted (at most
 * 1,000 a channel), so each one is kept here, in the transaction that replaced it, until no user is linked to it any
 * more; then the rich-menu worker deletes it at LINE and stamps `deleted_at`.
 */
export const richMenuRetired = pgTable(
  "rich_menu_retired",
  {
    lineRichMenuId: text("line_rich_menu_id").primaryKey(),
    state: text("state", { enum: RICH_MENU_STATES }).notNull(),
    retiredAt: timestamp("retired_at", { withTimezone: true }).notNull().defaultNow(),
    attempts: integer("attempts").notNull().default(0),
    dueAt: timestamp("due_at", { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    error: text("error"),
  },
  (t) => [index("rich_menu_retired_due_idx").on(t.dueAt).where(sql`deleted_at is null`)],
);
