import type { AppConfig } from "@platform/config";
import type { Database, DatabaseHandle } from "@platform/db/client";
import type { JobQueue } from "@platform/jobs/queue";
import type { Logger } from "@platform/logger";
import { createContext, type RouterContextProvider } from "react-router";
import type { Auth } from "../domain/auth/auth.server";
import type { DeliveryDeps } from "../domain/member-messages/delivery.server";
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
  /** Messages to members (ADR 034): the providers of the delivery, and this instance's dispatcher. */
  delivery: DeliveryDeps;
  dispatcher: { kick(): void };
  config: AppConfig;
  logger: Logger;
  nonce: string;
  requestId: string;
  /** better-auth: sessions and login identities (app/domain/auth/auth.server.ts). */
  auth: Auth;
  /** The client IP (from X-Forwarded-For only when TRUST_PROXY is set). */
  ip: string | null;
  /**
   * The render cache of public pages (server/http-cache.ts). `invalidate()` empties it here and moves the
   * catalogue version, so every instance follows; `clearLocal()` only empties it here, for a write whose own
   * transaction already moved the version (a store's publish).
   */
  publicPages: { invalidate(): Promise<void>; clearLocal(): void };
};

export const appContext = createContext<AppContext>();

export function getApp(context: Readonly<RouterContextProvider>): AppContext {
  return context.get(appContext);
}

/** The dependencies of the account flows (app/domain/auth/flows.server.ts). */
export function authDeps(context: Readonly<RouterContextProvider>) {
  const app = getApp(context);
  return { db: app.db, auth: app.auth, messaging: app.messaging, secret: app.config.secrets.session };
}

export function toastSettings(context: Readonly<RouterContextProvider>) {
  const { config } = getApp(context);
  return { secret: config.secrets.session, secure: config.isProduction };
}
