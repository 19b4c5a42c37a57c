import { type Database, rowsOf } from "@platform/db/client";
import {
  authAccount,
  loyaltyAccount,
  member,
  RICH_MENU_STATES,
  type RichMenuAreaRecord,
  type RichMenuState,
  richMenu,
  richMenuRetired,
  TIERS,
  type Tier,
} from "@platform/db/schema";
import { and, eq, inArray, sql } from "drizzle-orm";
import { type AuditContext, auditedTx } from "../audit/audit.server";
import { DeliveryError } from "../messaging/errors";
import { Refusal } from "../refusals";
import type { StaffActor } from "../staff/actor";
import { requirePermission } from "../staff/guard.server";
import type { LineRichMenuClient, LineRichMenuObject } from "./rich-menu-client.server";
import type { RichMenuInput } from "./rich-menu-input";

/**
 * The LINE rich menus by member state (issue 38 part 3, ADR 049): which menu a LINE user gets, and publishing a
 * state's menu from the console.
 *
 * - A LINE user who is no member (never linked, unlinked, or a disabled or deleted member) sees LINE's **default**
 *   rich menu: the `unlinked` state's menu is published as the default, and such a user has no menu of their own.
 * - A member linked to LINE gets their tier's menu when one is published, else the `member` menu, else none of
 *   their own (the default again).
 */

export type RichMenuRow = typeof richMenu.$inferSelect;

/** The one rule: a LINE user's state. */
export function richMenuStateOf(user: { member: boolean; tier: Tier | null }): "unlinked" | Tier {
  return user.member && user.tier ? user.tier : "unlinked";
}

/** The LINE rich menu id a state's user gets linked to; null = no menu of their own (LINE's default shows). */
export function menuForState(state: "unlinked" | Tier, published: ReadonlyMap<RichMenuState, string>): string | null {
  if (state === "unlinked") return null;
  return published.get(state) ?? published.get("member") ?? null;
}

/** The published menus' LINE ids by state. */
export async function publishedMenus(db: Database): Promise<Map<RichMenuState, string>> {
  const rows = await db.select({ state: richMenu.state, id: richMenu.lineRichMenuId }).from(richMenu);
  return new Map(rows.map((r) => [r.state, r.id]));
}

/**
 * Which menu each LINE user gets now (every path asks this, through the outbox's worker): a map from the LINE
 * user id to the LINE rich menu id, or null for "none of their own".
 */
export async function richMenusFor(db: Database, lineUserIds: readonly string[]): Promise<Map<string, string | null>> {
  const published = await publishedMenus(db);
  const wanted = new Map<string, string | null>(lineUserIds.map((id) => [id, null]));
  if (lineUserIds.length === 0 || published.size === 0) return wanted;
  const rows = await db
    .select({ lineUserId: authAccount.accountId, tier: loyaltyAccount.tier })
    .from(authAccount)
    .innerJoin(member, eq(member.userId, authAccount.userId))
    .leftJoin(loyaltyAccount, eq(loyaltyAccount.memberId, member.id))
    .where(
      and(
        eq(authAccount.providerId, "line"),
        inArray(authAccount.accountId, [...lineUserIds]),
        eq(member.disabled, false),
        sql`${member.deletedAt} is null`,
      ),
    );
  for (const r of rows)
    wanted.set(r.lineUserId, menuForState(richMenuStateOf({ member: true, tier: r.tier ?? "basic" }), published));
  return wanted;
}

/** The states in the order the console lists them. */
export const RICH_MENU_STATE_ORDER: readonly RichMenuState[] = RICH_MENU_STATES;

export function isRichMenuState(value: string): value is RichMenuState {
  return (RICH_MENU_STATES as readonly string[]).includes(value);
}

export async function listRichMenus(db: Database) {
  const rows = await db
    .select({
      state: richMenu.state,
      title: richMenu.title,
      chatBarText: richMenu.chatBarText,
      width: richMenu.width,
      height: richMenu.height,
      areaCount: sql<number>`jsonb_array_length(${richMenu.areas})`.mapWith(Number),
      lineRichMenuId: richMenu.lineRichMenuId,
      version: richMenu.version,
      publishedAt: richMenu.publishedAt,
    })
    .from(richMenu);
  return new Map(rows.map((r) => [r.state, r]));
}

export async function richMenuOf(db: Database, state: RichMenuState): Promise<RichMenuRow | null> {
  const [row] = await db.select().from(richMenu).where(eq(richMenu.state, state));
  return row ?? null;
}

/** Where the 會員卡 preset goes: the member card's page in LIFF (inside LINE), or on the site without a LIFF app. */
export function memberCardUrl(publicBaseUrl: string, liffId: string | null): string {
  return liffId
    ? `https://liff.line.me/${liffId}/member-center/card`
    : new URL("/member-center/card", publicBaseUrl).href;
}

/** The menu as LINE takes it. */
export function lineRichMenuObject(
  input: Pick<RichMenuInput, "title" | "chatBarText" | "selected" | "areas">,
  size: { width: number; height: number },
  cardUrl: string,
): LineRichMenuObject {
  return {
    size,
    selected: input.selected,
    name: input.title,
    chatBarText: input.chatBarText,
    areas: input.areas.map((a) => ({
      bounds: { x: a.x, y: a.y, width: a.width, height: a.height },
      action:
        a.kind === "message"
          ? { type: "message" as const, text: a.value }
          : { type: "uri" as const, uri: a.kind === "card" ? cardUrl : a.value },
    })),
  };
}

export type PublishDeps = { db: Database; richMenus: LineRichMenuClient | null; cardUrl: string };

export type PublishInput = {
  state: RichMenuState;
  menu: RichMenuInput;
  /** A new image, or null to publish the state's current image again. */
  image: { bytes: Uint8Array; type: "image/png" | "image/jpeg"; width: number; height: number } | null;
};

/** LINE's refusal or outage → the console's refusal (nothing stored). */
function lineFailure(error: unknown): never {
  if (error instanceof DeliveryError) {
    throw new Refusal("richMenus", error.retryable ? "line_unavailable" : "line_refused", { message: error.message });
  }
  throw error;
}

/**
 * Publishes a state's menu: created at LINE with its image (and made LINE's default for `unlinked`), then stored
 * and audited in one transaction that also queues every LINE user whose menu this changes. A failure after LINE
 * created the menu deletes it there again, so nothing is left half-done.
 */
export async function publishRichMenu(
  deps: PublishDeps,
  actor: StaffActor,
  input: PublishInput,
  audit: AuditContext,
  now = new Date(),
): Promise<RichMenuRow> {
  requirePermission(actor, "line.richmenu");
  const line = deps.richMenus;
  if (!line) throw new Refusal("richMenus", "line_off");
  const current = await richMenuOf(deps.db, input.state);
  const image =
    input.image ??
    (current ? { bytes: current.image, type: current.imageType, width: current.width, height: current.height } : null);
  if (!image) throw new Refusal("richMenus", "image_required", { field: "image" });
  const size = { width: image.width, height: image.height };
  let lineRichMenuId: string;
  try {
    lineRichMenuId = await line.create(lineRichMenuObject(input.menu, size, deps.cardUrl));
  } catch (error) {
    lineFailure(error);
  }
  try {
    await line.uploadImage(lineRichMenuId, image.bytes, image.type);
    if (input.state === "unlinked") await line.setDefault(lineRichMenuId);
    const areas: RichMenuAreaRecord[] = input.menu.areas.map(({ x, y, width, height, kind, value }) => ({
      x,
      y,
      width,
      height,
      kind,
      value,
    }));
    return await auditedTx(deps.db, audit, now, async (tx, record) => {
      const values = {
        title: input.menu.title,
        chatBarText: input.menu.chatBarText,
        selected: input.menu.selected ? 1 : 0,
        width: image.width,
        height: image.height,
        areas,
        imageType: image.type,
        image: image.bytes,
        lineRichMenuId,
        publishedBy: actor.userId,
        publishedAt: now,
      };
      const [row] = await tx
        .insert(richMenu)
        .values({ state: input.state, ...values, version: 1 })
        .onConflictDoUpdate({ target: richMenu.state, set: { ...values, version: sql`${richMenu.version} + 1` } })
        .returning();
      await record("rich_menu.published", ["rich_menu", input.state], {
        before: current ? auditView(current) : null,
        after: auditView(row as RichMenuRow),
      });
      if (current) await retireMenu(tx, current, now);
      await queueRelink(tx, input.state);
      return row as RichMenuRow;
    });
  } catch (error) {
    await line.remove(lineRichMenuId).catch(() => undefined);
    lineFailure(error);
  }
}

/** Removes a state's menu: its users fall back (tier → member → LINE's default); `unlinked` clears the default. */
export async function removeRichMenu(
  deps: PublishDeps,
  actor: StaffActor,
  state: RichMenuState,
  audit: AuditContext,
  now = new Date(),
): Promise<void> {
  requirePermission(actor, "line.richmenu");
  const line = deps.richMenus;
  if (!line) throw new Refusal("richMenus", "line_off");
  const current = await richMenuOf(deps.db, state);
  if (!current) throw new Refusal("richMenus", "not_found");
  if (state === "unlinked") await line.clearDefault().catch(lineFailure);
  await auditedTx(deps.db, audit, now, async (tx, record) => {
    await tx.delete(richMenu).where(eq(richMenu.state, state));
    await record("rich_menu.removed", ["rich_menu", state], { before: auditView(current), after: null });
    await retireMenu(tx, current, now);
    await queueRelink(tx, state);
  });
}

/**
 * Keeps a replaced or removed menu for deletion at LINE (`rich_menu_retired`, ADR 049): the rich-menu worker deletes
 * it once no user is linked to it any more.
 */
async function retireMenu(db: Database, menu: Pick<RichMenuRow, "lineRichMenuId" | "state">, now: Date) {
  await db
    .insert(richMenuRetired)
    .values({ lineRichMenuId: menu.lineRichMenuId, state: menu.state, retiredAt: now, dueAt: now })
    .onConflictDoNothing();
}

function auditView(row: RichMenuRow) {
  return {
    title: row.title,
    chatBarText: row.chatBarText,
    size: `${row.width}×${row.height}`,
    areas: row.areas.length,
    lineRichMenuId: row.lineRichMenuId,
  };
}

/**
 * Queues every LINE user whose menu a change of this state's menu may change, in one statement: the members linked
 * to LINE (of that tier, for a tier's menu). `unlinked` changes LINE's default only: nobody is relinked.
 */
export async function queueRelink(db: Database, state: RichMenuState): Promise<number> {
  if (state === "unlinked") return 0;
  const tier = (TIERS as readonly string[]).includes(state) ? state : null;
  const result = await db.execute(sql`
    with queued as (
      insert into rich_menu_link (line_user_id, status, generation, attempts, due_at, updated_at)
      select a.account_id, 'pending', 1, 0, now(), now()
        from auth_account a
        join member m on m.user_id = a.user_id
        left join loyalty_account l on l.member_id = m.id
       where a.provider_id = 'line' ${tier ? sql`and coalesce(l.tier, 'basic') = ${tier}` : sql``}
       -- In the users' order, as the worker's outcomes lock them: two multi-row writers never deadlock.
       order by a.account_id
      on conflict (line_user_id) do update
         set status = case when rich_menu_link.status = 'sending' then 'sending' else 'pending' end,
             generation = rich_menu_link.generation + 1,
             attempts = case when rich_menu_link.status = 'sending' then rich_menu_link.attempts else 0 end,
             due_at = now(), error = null, updated_at = now()
      returning 1)
    select count(*)::int as n from queued`);
  // The workers of every instance wake at commit (the cache bus's channel, as the outbox's triggers do).
  await db.execute(sql`select pg_notify('han_cache', 'richmenu')`);
  return Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0);
}
