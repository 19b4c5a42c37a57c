import type { Database } from "@platform/db/client";
import { authSession } from "@platform/db/schema";
import { and, desc, eq, gt, ne } from "drizzle-orm";

export type MemberSessionInfo = {
  id: string;
  current: boolean;
  userAgent: string | null;
  ipAddress: string | null;
  createdAt: Date;
  lastActiveAt: Date;
  expiresAt: Date;
};

/** The member's active sessions, newest activity first (the member center lists them). */
export async function listSessions(
  db: Database,
  userId: string,
  currentSessionId: string,
  now = new Date(),
): Promise<MemberSessionInfo[]> {
  const rows = await db
    .select()
    .from(authSession)
    .where(and(eq(authSession.userId, userId), gt(authSession.expiresAt, now)))
    .orderBy(desc(authSession.updatedAt));
  return rows.map((s) => ({
    id: s.id,
    current: s.id === currentSessionId,
    userAgent: s.userAgent,
    ipAddress: s.ipAddress,
    createdAt: s.createdAt,
    lastActiveAt: s.updatedAt,
    expiresAt: s.expiresAt,
  }));
}

/** Ends one of the member's own sessions ("log out this device"). Another user's id does nothing. */
export async function revokeSession(db: Database, userId: string, sessionId: string): Promise<boolean> {
  const rows = await db
    .delete(authSession)
    .where(and(eq(authSession.id, sessionId), eq(authSession.userId, userId)))
    .returning({ id: authSession.id });
  return rows.length === 1;
}

/** "Log out everywhere else": every session of the member but this one. */
export async function revokeOtherSessions(db: Database, userId: string, currentSessionId: string): Promise<number> {
  const rows = await db
    .delete(authSession)
    .where(and(eq(authSession.userId, userId), ne(authSession.id, currentSessionId)))
    .returning({ id: authSession.id });
  return rows.length;
}
