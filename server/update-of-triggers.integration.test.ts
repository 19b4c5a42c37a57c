import { type DatabaseHandle, rowsOf } from "@platform/db/client";
import { useMigratedTestDatabase } from "@platform/testing/migrated-database";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

/**
 * Migration 0060 (ADR 039 "Later (2026-12-07, HOT and summaries)"): the row-level update triggers of the rows a
 * purchase updates list the columns their WHEN compares (`AFTER UPDATE OF …`), so an update that names none of them
 * skips the trigger before PostgreSQL reads its WHEN back from the catalogue. A column-specific trigger fires only
 * when one of its columns is in the UPDATE's SET list: a WHEN that compares a column its list leaves out would miss
 * that column's changes, so every such trigger's list must hold every column of its WHEN (PGlite, or PostgreSQL
 * with TEST_DATABASE_URL).
 */
let handle: DatabaseHandle;
useMigratedTestDatabase("update_of_triggers", (ready) => {
  handle = ready;
});

const PURCHASE_PATH = [
  ["loyalty_account", "loyalty_account_cache_update"],
  ["loyalty_account", "report_loyalty_account_update"],
  ["member", "member_cache_update"],
  ["member", "webhook_member_update"],
  ["purchase", "purchase_cache_update"],
  ["point_entry", "point_entry_cache_update"],
  ["point_lot", "point_lot_cache_update"],
] as const;

type Trigger = { table: string; name: string; def: string };

async function updateTriggers(): Promise<Trigger[]> {
  return rowsOf<Trigger>(
    await handle.db.execute(
      sql`select c.relname as "table", t.tgname as name, pg_get_triggerdef(t.oid) as def
            from pg_trigger t join pg_class c on c.oid = t.tgrelid
           where not t.tgisinternal and c.relnamespace = current_schema()::regnamespace
             and (t.tgtype & 16) = 16`,
    ),
  );
}

/** The columns of `AFTER UPDATE OF a, b ON`, or null for a trigger without a list. */
function listed(def: string): string[] | null {
  const of = / UPDATE OF (.+?) ON /.exec(def);
  return of?.[1] ? of[1].split(",").map((c) => c.trim().replaceAll('"', "")) : null;
}

/** The columns the WHEN compares (OLD.c or NEW.c). */
function compared(def: string): string[] {
  const when = / WHEN \((.*)\) EXECUTE /.exec(def)?.[1] ?? "";
  return [...new Set([...when.matchAll(/\b(?:old|new)\.("?)(\w+)\1/gi)].map((m) => m[2] ?? ""))].sort();
}

describe("update triggers' column lists (migration 0060)", () => {
  it("the purchase's row-level update triggers list exactly the columns their WHEN compares", async () => {
    const triggers = await updateTriggers();
    for (const [table, name] of PURCHASE_PATH) {
      const trigger = triggers.find((t) => t.table === table && t.name === name);
      if (!trigger) throw new Error(`${table}: no trigger ${name}`);
      expect(compared(trigger.def).length, `${name}: a WHEN over columns`).toBeGreaterThan(0);
      expect(listed(trigger.def)?.sort(), `${name}: UPDATE OF`).toEqual(compared(trigger.def));
    }
  });

  it("no update trigger with a column list compares a column its list leaves out", async () => {
    for (const trigger of await updateTriggers()) {
      const columns = listed(trigger.def);
      if (!columns) continue;
      expect(
        compared(trigger.def).filter((c) => !columns.includes(c)),
        `${trigger.table}.${trigger.name}: WHEN columns not in UPDATE OF`,
      ).toEqual([]);
    }
  });
});
