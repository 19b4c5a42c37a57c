import type { Database } from "@platform/db/client";
import { consoleSetting } from "@platform/db/schema";
import { eq } from "drizzle-orm";
import { type AuditContext, auditedTx } from "../audit/audit.server";
import { MAX_MANAGER_LIMIT } from "../loyalty/adjustment-input";
import type { StaffActor } from "./actor";
import { StaffError } from "./errors";
import { requirePermission } from "./guard.server";
import { DEFAULT_MANAGER_ADJUSTMENT_LIMIT } from "./permissions";

/** Console settings an admin changes (ADR 023): one row per key in `console_setting`, a default in code. */
export const MANAGER_LIMIT_KEY = "points.managerAdjustmentLimit";

/** Points a manager may adjust in one go without an admin's approval. */
export async function managerAdjustmentLimit(db: Database): Promise<number> {
  const [row] = await db
    .select({ value: consoleSetting.value })
    .from(consoleSetting)
    .where(eq(consoleSetting.key, MANAGER_LIMIT_KEY));
  const value = row?.value;
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0
    ? value
    : DEFAULT_MANAGER_ADJUSTMENT_LIMIT;
}

/** Changes the manager's limit (admins: `settings.edit`), with its audit row in the same transaction. */
export async function setManagerAdjustmentLimit(
  db: Database,
  actor: StaffActor,
  limit: number,
  audit: AuditContext,
  now = new Date(),
): Promise<{ before: number; after: number }> {
  requirePermission(actor, "settings.edit");
  if (!Number.isSafeInteger(limit) || limit < 0 || limit > MAX_MANAGER_LIMIT) {
    throw new StaffError("invalid_setting", "The limit must be a whole number of points", "managerLimit");
  }
  return auditedTx(db, audit, now, async (t, record) => {
    // Serialises concurrent changes of the key (the row is created on first use).
    await t
      .insert(consoleSetting)
      .values({ key: MANAGER_LIMIT_KEY, value: DEFAULT_MANAGER_ADJUSTMENT_LIMIT, updatedAt: now })
      .onConflictDoNothing();
    const [row] = await t
      .select({ value: consoleSetting.value })
      .from(consoleSetting)
      .where(eq(consoleSetting.key, MANAGER_LIMIT_KEY))
      .for("update");
    const before = typeof row?.value === "number" ? row.value : DEFAULT_MANAGER_ADJUSTMENT_LIMIT;
    await t
      .update(consoleSetting)
      .set({ value: limit, updatedAt: now, updatedBy: actor.userId })
      .where(eq(consoleSetting.key, MANAGER_LIMIT_KEY));
    if (before !== limit) {
      await record("settings.changed", ["console_setting", MANAGER_LIMIT_KEY], {
        before: { value: before },
        after: { value: limit },
      });
    }
    return { before, after: limit };
  });
}
