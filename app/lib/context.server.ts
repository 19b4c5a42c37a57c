import { createContext, type RouterContextProvider } from "react-router";
import type { AppConfig } from "../../server/config";
import type { Database, DatabaseHandle } from "../../server/db/client";
import type { Logger } from "../../server/logger";

/** What every loader and action receives from the server, through the router context. */
export type AppContext = {
  db: Database;
  driver: DatabaseHandle["driver"];
  migrationStatus: DatabaseHandle["migrationStatus"];
  config: AppConfig;
  logger: Logger;
  nonce: string;
  requestId: string;
};

export const appContext = createContext<AppContext>();

export function getApp(context: Readonly<RouterContextProvider>): AppContext {
  return context.get(appContext);
}
