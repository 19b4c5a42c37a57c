import { sampleRequest } from "@platform/db/schema";
import type { SampleStatus } from "@platform/db/schema/samples";
import { and, eq, lt, type SQL } from "drizzle-orm";

/**
 * A sample is overdue when it is out (`handed_out`) and its due-back day is before today in Taipei (`today`, an ISO
 * date). One rule for the member center, the console's list, filter and member page, and the dashboard: `isOverdue`
 * for a row read, `overdueSql` for the same rule in SQL.
 */
export function isOverdue(sample: { status: SampleStatus; dueBackOn: string | null }, today: string): boolean {
  return sample.status === "handed_out" && sample.dueBackOn !== null && sample.dueBackOn < today;
}

/** In SQL, on `sample_request`: the samples `isOverdue` names. */
export function overdueSql(today: string): SQL {
  return and(eq(sampleRequest.status, "handed_out"), lt(sampleRequest.dueBackOn, today)) as SQL;
}
