import type { DatabaseHandle } from "@platform/db/client";
import { auditLog, material, materialSampleStore, sampleOpenCount, sampleRequest } from "@platform/db/schema";
import { useTwoPostgresInstances } from "@platform/testing/two-instances";
import { and, eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_SHOWROOM_SETTINGS } from "~/domain/showroom/settings";
import { seedCatalog } from "../demo";
import { newMember } from "../loyalty/testing.server";
import { createTestStaff, testAdminActor } from "../staff/testing.server";
import { moveSamples, requestSamples, SampleError } from "./samples.server";

const SAMPLE_LIMIT = DEFAULT_SHOWROOM_SETTINGS.sampleLimit;

/**
 * Samples under real concurrency (issue 37 part 3, ADR 046): two database handles stand in for two app instances
 * on one PostgreSQL. PostgreSQL only (TEST_DATABASE_URL).
 */
let one: DatabaseHandle;
let two: DatabaseHandle;
useTwoPostgresInstances("samples_race", (pair) => {
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

describe("samples on PostgreSQL, two instances", () => {
  it("20 simultaneous requests by one member: exactly the limit succeeds, the rest are told over_limit", {
    timeout: 120_000,
  }, async () => {
    expect(materials.length).toBeGreaterThanOrEqual(20);
    for (let round = 0; round < 3; round++) {
      const m = await newMember(one.db);
      // One open sample before the burst: 4 places left.
      await requestSamples(
        one.db,
        { memberId: m.id, storeId: STORE, materialIds: [materials[0] as string] },
        new Date(),
      );
      const results = await Promise.allSettled(
        materials
          .slice(1, 21)
          .map((materialId, i) =>
            requestSamples(
              (i % 2 ? two : one).db,
              { memberId: m.id, storeId: STORE, materialIds: [materialId] },
              new Date(),
            ),
          ),
      );
      const ok = results.filter((r) => r.status === "fulfilled");
      const refused = results.flatMap((r) => (r.status === "rejected" ? [codeOf(r.reason)] : []));
      expect(ok).toHaveLength(SAMPLE_LIMIT - 1);
      expect(refused).toEqual(Array.from({ length: 20 - (SAMPLE_LIMIT - 1) }, () => "over_limit"));
      const rows = await one.db.select().from(sampleRequest).where(eq(sampleRequest.memberId, m.id));
      expect(rows).toHaveLength(SAMPLE_LIMIT);
      const [count] = await one.db.select().from(sampleOpenCount).where(eq(sampleOpenCount.memberId, m.id));
      expect(count?.open).toBe(SAMPLE_LIMIT);
    }
  });

  it("two staff handing out the same sample at once over two instances: one hands it out, audited once", {
    timeout: 120_000,
  }, async () => {
    const clerk = await createTestStaff(one.db, SECRET, { role: "staff", storeIds: [STORE] });
    const { actor: admin, audit } = testAdminActor();
    for (let round = 0; round < 10; round++) {
      const m = await newMember(one.db);
      const ids = await requestSamples(
        one.db,
        { memberId: m.id, storeId: STORE, materialIds: materials.slice(0, 2) },
        new Date(),
      );
      await moveSamples(one.db, admin, "ready", ids, audit, new Date());
      const results = await Promise.allSettled([
        moveSamples(one.db, clerk.actor, "hand_out", ids, audit, new Date()),
        moveSamples(two.db, admin, "hand_out", ids, audit, new Date()),
      ]);
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      const refused = results.flatMap((r) => (r.status === "rejected" ? [codeOf(r.reason)] : []));
      expect(refused).toEqual(["wrong_state"]);
      const audits = await one.db
        .select()
        .from(auditLog)
        .where(and(inArray(auditLog.targetId, ids), eq(auditLog.action, "sample.handed_out")));
      expect(audits).toHaveLength(2);
    }
  });
});
