import type { Database } from "@platform/db/client";
import type { Logger } from "@platform/logger";
import { deauthorizeLineForMember, type LineChannel } from "../line/line.server";

/**
 * Logins held by other companies (LINE) that must be told when a member deletes their account,
 * so the member's grant to us ends there too. Each revoker gets the user id before our own link
 * rows are erased (it may need the stored tokens).
 */
export type ExternalLoginRevoker = {
  /** For logs, e.g. "line". */
  provider: string;
  revoke(input: { db: Database; userId: string }): Promise<void>;
};

/**
 * The revokers account deletion runs (deleteMemberAccount in privacy.server.ts): LINE's token
 * revocation for a linked LINE login (ADR 013), when a LINE channel is configured.
 */
export function externalLoginRevokers(deps: {
  logger: Pick<Logger, "warn" | "info">;
  line: LineChannel | null;
}): ExternalLoginRevoker[] {
  return [
    {
      provider: "line",
      async revoke({ db, userId }) {
        await deauthorizeLineForMember({ db, logger: deps.logger, line: deps.line }, userId);
      },
    },
  ];
}
