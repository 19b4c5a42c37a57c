import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { jobQueueTestRig } from "@platform/testing/job-queue";
import { waitFor } from "@platform/testing/wait";
import { afterAll, expect, it } from "vitest";
import { readSignedHead } from "./anchor.server";
import { recordAudit } from "./audit.server";
import { AUDIT_CHECK_QUEUE, AUDIT_SIGN_QUEUE, registerAuditCheck } from "./chain-check.server";

// The job queue signs the audit chain's head every minute (and checks the whole chain hourly).
const dir = mkdtempSync(path.join(tmpdir(), "audit-jobs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const anchor = { key: "k".repeat(40), file: path.join(dir, "audit-anchor.json") };

const rig = jobQueueTestRig("audit_jobs", (queue, db) => registerAuditCheck(queue, { db, anchor }));

it("is scheduled every minute (signing) and hourly (the whole chain), and signs the head it verified", async () => {
  expect((await rig.queue.schedules(AUDIT_SIGN_QUEUE)).map((s) => s.cron)).toEqual(["* * * * *"]);
  expect((await rig.queue.schedules(AUDIT_CHECK_QUEUE)).map((s) => s.cron)).toEqual(["23 * * * *"]);
  const db = rig.database.db;
  for (let i = 0; i < 3; i++) {
    await db.transaction((tx) =>
      recordAudit(tx, {
        context: { actorType: "system", label: "test", ip: null, userAgent: null, requestId: null },
        action: "settings.changed",
        targetType: "test",
        targetId: String(i),
      }),
    );
  }
  const id = await rig.queue.send(AUDIT_SIGN_QUEUE, {});
  const job = await waitFor(
    () => rig.queue.job(AUDIT_SIGN_QUEUE, id),
    (j) => j?.state === "completed",
    15_000,
  );
  expect(job?.output).toEqual({ ok: true, lastSeq: 3 });
  expect(readSignedHead(anchor)).toMatchObject({ state: "ok", head: { seq: 3 } });
});
