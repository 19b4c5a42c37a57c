import type { Database } from "@platform/db/client";
import { authPasskey } from "@platform/db/schema";
import { and, desc, eq } from "drizzle-orm";

/**
 * The member's passkeys for the security page. Registration and passkey login go through
 * better-auth's passkey plugin (/api/auth/passkey/*); naming and removing are plain row updates
 * scoped to the session's user, so another member's passkey id changes nothing.
 */
export type PasskeyInfo = { id: string; name: string | null; createdAt: Date | null; backedUp: boolean };

export async function listPasskeys(db: Database, userId: string): Promise<PasskeyInfo[]> {
  return db
    .select({
      id: authPasskey.id,
      name: authPasskey.name,
      createdAt: authPasskey.createdAt,
      backedUp: authPasskey.backedUp,
    })
    .from(authPasskey)
    .where(eq(authPasskey.userId, userId))
    .orderBy(desc(authPasskey.createdAt));
}

export async function renamePasskey(db: Database, userId: string, id: string, name: string): Promise<boolean> {
  const rows = await db
    .update(authPasskey)
    .set({ name })
    .where(and(eq(authPasskey.id, id), eq(authPasskey.userId, userId)))
    .returning({ id: authPasskey.id });
  return rows.length === 1;
}

export async function removePasskey(db: Database, userId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(authPasskey)
    .where(and(eq(authPasskey.id, id), eq(authPasskey.userId, userId)))
    .returning({ id: authPasskey.id });
  return rows.length === 1;
}
