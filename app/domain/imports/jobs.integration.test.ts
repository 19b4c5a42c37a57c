import { memberMessage, pointEntry } from "@platform/db/schema";
import { jobQueueTestRig } from "@platform/testing/job-queue";
import { waitFor } from "@platform/testing/wait";
import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { checkLedger } from "../loyalty/ledger-check.server";
import { checkRun, getRun, registerImportJobs, setCsvMapping, stageCsv, startRun } from "./runs.server";
import { csvFixture, TEST_CSV_MAPPING, textStream } from "./testing.server";

const rig = jobQueueTestRig("import_jobs", registerImportJobs);

it("startRun queues the member-import job, which applies the run (welcome points and message when chosen)", async () => {
  const db = rig.database.db;
  const staged = await stageCsv(db, {
    source: "welcome-test",
    file: textStream(
      "w.csv",
      csvFixture([
        { id: "W1", phone: "0966000001", name: "歡迎", points: 10 },
        { id: "W2", phone: "0966000002", name: "歡迎二" },
      ]),
    ),
    actor: { kind: "cli" },
  });
  await setCsvMapping(db, staged.id, TEST_CSV_MAPPING, { welcome: true, evaluateTiers: true });
  await checkRun(db, staged.id);
  await startRun(db, rig.queue, staged.id, { kind: "cli" });
  const run = await waitFor(
    () => getRun(db, staged.id),
    (r) => r.status === "done",
    30_000,
  );
  expect(run).toMatchObject({ created: 2, pointsBooked: 10 });
  const kinds = (await db.select({ kind: pointEntry.kind }).from(pointEntry)).map((e) => e.kind).sort();
  expect(kinds).toEqual(["import", "welcome", "welcome"]);
  const messages = await db.select().from(memberMessage).where(eq(memberMessage.kind, "welcome"));
  expect(messages).toHaveLength(2);
  expect((await checkLedger(db)).mismatches).toEqual([]);
});
