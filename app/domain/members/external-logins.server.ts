import type { Database } from "../../../server/db/client";

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
 * COORDINATOR: the LINE branch's deauthorization goes in this list (the one call site; it runs
 * from deleteMemberAccount in privacy.server.ts), e.g.
 * `{ provider: "line", revoke: ({ db, userId }) => deauthorizeLine(db, userId) }`.
 */
export const EXTERNAL_LOGIN_REVOKERS: ExternalLoginRevoker[] = [];
