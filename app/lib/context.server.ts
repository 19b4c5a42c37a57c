import { createContext, type RouterContextProvider } from "react-router";
import type { AppConfig } from "../../server/config";
import type { Database, DatabaseHandle } from "../../server/db/client";
import type { JobQueue } from "../../server/jobs/queue";
import type { Logger } from "../../server/logger";
import type { Messaging } from "../domain/messaging/types";

/** What every loader and action receives from the server, through the router context. */
export type AppContext = {
  db: Database;
  driver: DatabaseHandle["driver"];
  migrationStatus: DatabaseHandle["migrationStatus"];
  /** The PostgreSQL-backed job queue: enqueue jobs, add workers and cron schedules (ADR 005). */
  jobs: JobQueue;
  /** Outgoing text messages and e-mails (queued, sent by the job workers). */
  messaging: Messaging;
  config: AppConfig;
  logger: Logger;
  nonce: string;
  requestId: string;
};

export const appContext = createContext<AppContext>();

export function getApp(context: Readonly<RouterContextProvider>): AppContext {
  return context.get(appContext);
}
