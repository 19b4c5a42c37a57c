import type { DatabaseHandle } from "@platform/db/client";
import { auditLog, material, materialSampleStore, sampleOpenCount, sampleRequest } from "@platform/db/schema";
import { useTwoPostgresInstances } from "@platform/testing/two-instances";
import { and, eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { seedCatalog } from "../demo";
import { newMember } from "../loyalty/testing.server";
import { DEFAULT_SHOWROOM_SETTINGS } from "../showroom/settings";
import { createTestStaff, testAdminActor } from "../staff/testing.server";
import { lendSamples } from "./counter-loan.server";
import { requestSamples, SampleError } from "./samples.server";

const SAMPLE_LIMIT = DEFAULT_SHOWROOM_SETTINGS.sampleLimit;

/**
 * The walk-in loan at the counter under real concurrency (ADR 046): two database handles stand in for two app
 * instances on one PostgreSQL. The counter's loans and the member's online requests claim the same places by the
 * same statement, so at the limit exactly the places left are taken, whoever asks. PostgreSQL only.
 */
let one: DatabaseHandle;
let two: DatabaseHandle;
useTwoPostgresInstances("counter_loan_race", (pair) => {
  ({ one, two } = pair);
});

const STORE = "xinyi-flagship";
const SECRET = "test-session-secret-with-enough-length-0123456789";
let materials: string[] = [];

beforeAll(async () => {
  await seedCatalog(one.db);
  materials = (
    await one.db
      .select({ id: materialSampleStore.materialId })
      .from(materialSampleStore)
      .innerJoin(material, eq(material.id, materialSampleStore.materialId))
      .where(and(eq(materialSampleStore.storeId, STORE), eq(material.published, true)))
  )
    .map((r) => r.id)
    .sort();
});

const codeOf = (error: unknown) => {
  if (error instanceof SampleError) return error.code;
  throw error;
};

describe("the counter's loan at the limit, two instances", () => {
  it("20 loans and online requests at once for one member with 4 places left: 4 stored, 16 told over_limit", {
    timeout: 120_000,
  }, async () => {
    expect(materials.length).toBeGreaterThanOrEqual(21);
    const clerks = await Promise.all([
      createTestStaff(one.db, SECRET, { role: "staff", storeIds: [STORE] }),
      createTestStaff(one.db, SECRET, { role: "staff", storeIds: [STORE] }),
    ]);
    const { audit } = testAdminActor();
    for (let round = 0; round < 3; round++) {
      const m = await newMember(one.db);
      // One sample out before the burst (lent at the counter): 4 places left.
      await lendSamples(
        one.db,
        clerks[0].actor,
        { memberId: m.id, storeId: STORE, materialIds: [materials[0] as string] },
        audit,
        new Date(),
      );
      const results = await Promise.allSettled(
        materials.slice(1, 21).map((materialId, i) => {
          const db = (i % 2 ? two : one).db;
          // Every third is the member's own online request; the rest are two clerks lending at once.
          if (i % 3 === 0)
            return requestSamples(db, { memberId: m.id, storeId: STORE, materialIds: [materialId] }, new Date());
          const clerk = clerks[i % 2] ?? clerks[0];
          return lendSamples(
            db,
            clerk.actor,
            { memberId: m.id, storeId: STORE, materialIds: [materialId] },
            audit,
            new Date(),
          );
        }),
      );
      const ok = results.filter((r) => r.status === "fulfilled");
      const refused = results.flatMap((r) => (r.status === "rejected" ? [codeOf(r.reason)] : []));
      expect(ok).toHaveLength(SAMPLE_LIMIT - 1);
      expect(refused).toEqual(Array.from({ length: 20 - (SAMPLE_LIMIT - 1) }, () => "over_limit"));
      const rows = await one.db.select().from(sampleRequest).where(eq(sampleRequest.memberId, m.id));
      expect(rows).toHaveLength(SAMPLE_LIMIT);
      const [count] = await one.db.select().from(sampleOpenCount).where(eq(sampleOpenCount.memberId, m.id));
      expect(count?.open).toBe(SAMPLE_LIMIT);
      // Every sample lent at the counter has its one audit row; a refused loan left none.
      const lent = rows.filter((r) => r.status === "handed_out");
      const audits = await one.db
        .select({ targetId: auditLog.targetId })
        .from(auditLog)
        .where(
          and(
            eq(auditLog.action, "sample.handed_out"),
            inArray(
              auditLog.targetId,
              rows.map((r) => r.id),
            ),
          ),
        );
      expect(audits.map((a) => a.targetId).sort()).toEqual(lent.map((r) => r.id).sort());
    }
  });
});
