import type { Database } from "@platform/db/client";
import { diagnosticProbe } from "@platform/db/schema";
import { eq } from "drizzle-orm";

export type RoundTripStep = {
  step: "create" | "read" | "update" | "delete" | "verify-deleted";
  ok: boolean;
  detail: string;
};

/**
 * Proves the configured driver end to end: insert a scratch row, read it back, update it,
 * delete it and check that it is gone. Leaves nothing behind, even when a step fails.
 */
export async function runCrudRoundTrip(db: Database, label: string): Promise<RoundTripStep[]> {
  const steps: RoundTripStep[] = [];
  const [created] = await db.insert(diagnosticProbe).values({ label }).returning();
  if (!created) return [{ step: "create", ok: false, detail: "no row returned" }];
  steps.push({ step: "create", ok: true, detail: created.id });
  try {
    const [read] = await db.select().from(diagnosticProbe).where(eq(diagnosticProbe.id, created.id));
    steps.push({ step: "read", ok: read?.label === label, detail: read ? `label=${read.label}` : "missing" });

    const [updated] = await db
      .update(diagnosticProbe)
      .set({ counter: created.counter + 1, updatedAt: new Date() })
      .where(eq(diagnosticProbe.id, created.id))
      .returning();
    steps.push({ step: "update", ok: updated?.counter === created.counter + 1, detail: `counter=${updated?.counter}` });
  } finally {
    const deleted = await db.delete(diagnosticProbe).where(eq(diagnosticProbe.id, created.id)).returning();
    steps.push({ step: "delete", ok: deleted.length === 1, detail: `rows=${deleted.length}` });
  }
  const remaining = await db.select().from(diagnosticProbe).where(eq(diagnosticProbe.id, created.id));
  steps.push({ step: "verify-deleted", ok: remaining.length === 0, detail: `rows=${remaining.length}` });
  return steps;
}
