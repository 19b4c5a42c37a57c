import { createHash, randomBytes } from "node:crypto";
import type { Database } from "@platform/db/client";
import { apiKey } from "@platform/db/schema";
import { and, eq, isNull } from "drizzle-orm";

export type ApiKey = typeof apiKey.$inferSelect;

function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

/**
 * Creates a key for one store and returns its secret once ("hlpos_" + 256 random bits). Only a
 * SHA-256 is stored: the secret is random, so a slow password hash would add nothing.
 */
export async function createApiKey(
  db: Database,
  input: { storeId: string; name: string },
): Promise<{ key: ApiKey; secret: string }> {
  const secret = `hlpos_${randomBytes(32).toString("base64url")}`;
  const [key] = await db
    .insert(apiKey)
    .values({ storeId: input.storeId, name: input.name, prefix: secret.slice(0, 12), secretHash: hashSecret(secret) })
    .returning();
  if (!key) throw new Error("api key insert returned nothing");
  return { key, secret };
}

export async function revokeApiKey(db: Database, id: string, now = new Date()): Promise<void> {
  await db
    .update(apiKey)
    .set({ revokedAt: now })
    .where(and(eq(apiKey.id, id), isNull(apiKey.revokedAt)));
}

/** lastUsedAt is kept to the minute: one write a minute per key, not one per request. */
const LAST_USED_RESOLUTION_MS = 60_000;

/** The active key for a presented secret (its last-used time refreshed once a minute), or null. */
export async function authenticateApiKey(db: Database, secret: string, now = new Date()): Promise<ApiKey | null> {
  if (!secret.startsWith("hlpos_") || secret.length > 100) return null;
  const [key] = await db
    .select()
    .from(apiKey)
    .where(and(eq(apiKey.secretHash, hashSecret(secret)), isNull(apiKey.revokedAt)));
  if (!key) return null;
  if (!key.lastUsedAt || now.getTime() - key.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    await db.update(apiKey).set({ lastUsedAt: now }).where(eq(apiKey.id, key.id));
    key.lastUsedAt = now;
  }
  return key;
}
