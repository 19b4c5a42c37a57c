import type { Database } from "@platform/db/client";
import { isForeignKeyViolation } from "@platform/db/errors";
import { coupon, reward, rewardStockChange } from "@platform/db/schema";
import { and, asc, desc, eq, ilike, isNotNull, sql } from "drizzle-orm";
import { type AuditContext, auditedTx } from "../audit/audit.server";
import { Refusal, VersionConflict } from "../refusals";
import type { StaffActor } from "../staff/actor";
import { requirePermission } from "../staff/guard.server";
import type { RewardFields, StockChange } from "./reward-input";
import { REWARDS_PAGE_SIZE, type RewardQuery } from "./reward-list";

/**
 * Rewards in the console (issue 14 item 5, ADR 029): create, edit, retire, stock adjustments with a
 * reason. Admins only (`programme.edit`). Every save is one conditional statement on the version the
 * admin edited (optimistic concurrency), with its audit row in the same transaction. Stock is not part
 * of the edit: it changes by adjustments (`stock = stock + delta`, atomic, never below zero), so an
 * adjustment, an edit and the members' redemptions (rewards.server.ts, ADR 018) never overwrite each other.
 */

export type Reward = typeof reward.$inferSelect;

/** The reward changed since the form was opened (409, with the reward now), or no longer exists (404). */
function rewardConflict(current: Reward | null): Refusal {
  return current ? new VersionConflict("programme", current) : new Refusal("programme", "not_found");
}

/** The uploaded image chosen for the reward does not exist (deleted meanwhile, or a forged id). */
export class RewardImageMissing extends Refusal<"programme"> {
  constructor() {
    super("programme", "image_missing", { field: "imageId", message: "The reward's image does not exist" });
    this.name = "RewardImageMissing";
  }
}

/** The image reference is checked by its foreign key, in the statement that saves it (no read-then-write). */
async function checkingImage<T>(save: Promise<T>): Promise<T> {
  try {
    return await save;
  } catch (error) {
    if (isForeignKeyViolation(error, "reward_image_id_media_image_id_fk")) throw new RewardImageMissing();
    throw error;
  }
}

/**
 * One page of rewards. The table holds a programme's rewards (tens, not millions), so an offset page and
 * an exact count are cheap here; the member-sized lists use keyset pages.
 */
export async function listRewards(db: Database, query: RewardQuery) {
  const where = and(
    query.q ? ilike(reward.name, `%${query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) : undefined,
    query.status === "all" ? undefined : eq(reward.active, query.status === "active"),
  );
  const column =
    query.sort === "cost"
      ? reward.pointsCost
      : query.sort === "stock"
        ? sql`coalesce(${reward.stock}, 2147483647)`
        : query.sort === "updated"
          ? reward.updatedAt
          : reward.name;
  const order = query.dir === "desc" ? desc(column) : asc(column);
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: reward.id,
        name: reward.name,
        kind: reward.kind,
        pointsCost: reward.pointsCost,
        stock: reward.stock,
        active: reward.active,
        validFrom: reward.validFrom,
        validUntil: reward.validUntil,
        updatedAt: reward.updatedAt,
        // Qualified by hand: in a single-table select Drizzle renders ${"reward.id"} as a bare "id",
        // which inside this subquery would be the coupon's own id (the trap tiers.server.ts notes).
        issued: sql<number>`(select count(*)::int from ${coupon} c where c.reward_id = "reward"."id" and c.status not in ('cancelled', 'revoked'))`,
      })
      .from(reward)
      .where(where)
      .orderBy(order, asc(reward.id))
      .limit(REWARDS_PAGE_SIZE)
      .offset((query.page - 1) * REWARDS_PAGE_SIZE),
    db.select({ n: sql<number>`count(*)::int` }).from(reward).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

export async function rewardById(db: Database, id: string): Promise<Reward | null> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return null;
  const [row] = await db.select().from(reward).where(eq(reward.id, id));
  return row ?? null;
}

/**
 * The reward's stock history (newest first) and how many of its coupons are out (issued: neither cancelled nor
 * revoked), used, cancelled, and revoked (a referral's coupon taken back by the refund, ADR 053).
 */
export async function stockHistory(db: Database, rewardId: string) {
  const [changes, [counts]] = await Promise.all([
    db
      .select()
      .from(rewardStockChange)
      .where(eq(rewardStockChange.rewardId, rewardId))
      .orderBy(desc(rewardStockChange.createdAt), desc(rewardStockChange.id))
      .limit(100),
    db
      .select({
        issued: sql<number>`count(*) filter (where ${coupon.status} not in ('cancelled', 'revoked'))::int`,
        used: sql<number>`count(*) filter (where ${coupon.status} = 'used')::int`,
        cancelled: sql<number>`count(*) filter (where ${coupon.status} = 'cancelled')::int`,
        revoked: sql<number>`count(*) filter (where ${coupon.status} = 'revoked')::int`,
      })
      .from(coupon)
      .where(eq(coupon.rewardId, rewardId)),
  ]);
  return {
    changes,
    issued: counts?.issued ?? 0,
    used: counts?.used ?? 0,
    cancelled: counts?.cancelled ?? 0,
    revoked: counts?.revoked ?? 0,
  };
}

/** The fields an audit row shows (the image as its path or its id). */
function audited(r: Reward | (RewardFields & { stock?: number | null; active?: boolean })) {
  return {
    name: r.name,
    kind: r.kind,
    amountOff: r.amountOff,
    pointsCost: r.pointsCost,
    perMemberLimit: r.perMemberLimit,
    validFrom: r.validFrom?.toISOString() ?? null,
    validUntil: r.validUntil?.toISOString() ?? null,
    storeIds: r.storeIds,
    couponValidDays: r.couponValidDays,
    image: r.image?.src ?? null,
    imageId: r.imageId,
    ...("active" in r && r.active !== undefined ? { active: r.active } : {}),
  };
}

export async function createReward(
  db: Database,
  actor: StaffActor,
  fields: RewardFields & { stock: number | null },
  audit: AuditContext,
  now = new Date(),
): Promise<Reward> {
  requirePermission(actor, "programme.edit");
  return checkingImage(
    auditedTx(db, audit, now, async (t, record) => {
      const [row] = await t
        .insert(reward)
        .values({ ...fields, active: true, version: 1, createdAt: now, updatedAt: now })
        .returning();
      if (!row) throw new Error("reward insert returned nothing");
      if (fields.stock !== null) {
        await t.insert(rewardStockChange).values({
          rewardId: row.id,
          delta: fields.stock,
          stockAfter: fields.stock,
          reason: "initial stock",
          staffUserId: actor.userId,
          createdAt: now,
        });
      }
      await record("reward.created", ["reward", row.id], { after: { ...audited(row), stock: row.stock } });
      return row;
    }),
  );
}

/** Saves the edit form over the version the admin saw; a later save of an older version is refused. */
export async function updateReward(
  db: Database,
  actor: StaffActor,
  id: string,
  version: number,
  fields: RewardFields,
  audit: AuditContext,
  now = new Date(),
): Promise<Reward> {
  requirePermission(actor, "programme.edit");
  return checkingImage(
    auditedTx(db, audit, now, async (t, record) => {
      const [before] = await t.select().from(reward).where(eq(reward.id, id)).for("update");
      if (!before || before.version !== version) throw rewardConflict(before ?? null);
      // Only the edit form's fields: the stock changes by adjustments (adjustStock), never by an edit, even
      // when the caller's object carries one (the parsed form has `stock: null` = unlimited).
      const editable: RewardFields = {
        name: fields.name,
        kind: fields.kind,
        amountOff: fields.amountOff,
        pointsCost: fields.pointsCost,
        perMemberLimit: fields.perMemberLimit,
        validFrom: fields.validFrom,
        validUntil: fields.validUntil,
        storeIds: fields.storeIds,
        couponValidDays: fields.couponValidDays,
        image: fields.image,
        imageId: fields.imageId,
      };
      const [row] = await t
        .update(reward)
        .set({ ...editable, version: sql`${reward.version} + 1`, updatedAt: now })
        .where(and(eq(reward.id, id), eq(reward.version, version)))
        .returning();
      if (!row) throw rewardConflict(before);
      await record("reward.updated", ["reward", id], { before: audited(before), after: audited(row) });
      return row;
    }),
  );
}

/** Retires (no longer offered; issued coupons stay valid) or offers again. */
export async function setRewardActive(
  db: Database,
  actor: StaffActor,
  id: string,
  version: number,
  active: boolean,
  audit: AuditContext,
  now = new Date(),
): Promise<Reward> {
  requirePermission(actor, "programme.edit");
  return auditedTx(db, audit, now, async (t, record) => {
    const [row] = await t
      .update(reward)
      .set({ active, version: sql`${reward.version} + 1`, updatedAt: now })
      .where(and(eq(reward.id, id), eq(reward.version, version)))
      .returning();
    if (!row) {
      const [current] = await t.select().from(reward).where(eq(reward.id, id));
      throw rewardConflict(current ?? null);
    }
    await record(active ? "reward.reactivated" : "reward.retired", ["reward", id], {
      before: { active: !active },
      after: { active },
    });
    return row;
  });
}

export class StockRefused extends Refusal<"programme"> {
  constructor(readonly stock: number | null) {
    super("programme", "stock_negative", {
      field: "delta",
      params: { stock: String(stock ?? 0) },
      message: "The stock cannot go below zero",
    });
    this.name = "StockRefused";
  }
}

/**
 * Changes the stock by a signed amount in one statement (`stock + delta`, only if the result is not
 * negative and the stock is limited), or sets it (an unlimited reward gets a stock, or becomes
 * unlimited). Not tied to the version: adjustments add up, like redemptions take away.
 */
export async function adjustStock(
  db: Database,
  actor: StaffActor,
  id: string,
  change: StockChange,
  reason: string,
  audit: AuditContext,
  now = new Date(),
): Promise<Reward> {
  requirePermission(actor, "programme.edit");
  return auditedTx(db, audit, now, async (t, record) => {
    let row: Reward | undefined;
    let before: number | null;
    if (change.kind === "delta") {
      [row] = await t
        .update(reward)
        .set({ stock: sql`${reward.stock} + ${change.delta}`, updatedAt: now })
        .where(and(eq(reward.id, id), isNotNull(reward.stock), sql`${reward.stock} + ${change.delta} >= 0`))
        .returning();
      if (!row) {
        const [current] = await t.select().from(reward).where(eq(reward.id, id));
        if (!current) throw rewardConflict(null);
        throw new StockRefused(current.stock);
      }
      before = (row.stock ?? 0) - change.delta;
    } else {
      const [current] = await t.select().from(reward).where(eq(reward.id, id)).for("update");
      if (!current) throw rewardConflict(null);
      before = current.stock;
      [row] = await t.update(reward).set({ stock: change.stock, updatedAt: now }).where(eq(reward.id, id)).returning();
    }
    if (!row) throw new Error("reward update returned nothing");
    await t.insert(rewardStockChange).values({
      rewardId: id,
      delta: row.stock === null ? null : row.stock - (before ?? 0),
      stockAfter: row.stock,
      reason,
      staffUserId: actor.userId,
      createdAt: now,
    });
    await record("reward.stock-adjusted", ["reward", id], {
      before: { stock: before },
      after: { stock: row.stock, reason },
    });
    return row;
  });
}
