import { createHash, randomBytes } from "node:crypto";
import { cacheRegion } from "@platform/cache/shared-cache";
import type { Database } from "@platform/db/client";
import { apiKey, store } from "@platform/db/schema";
import { and, desc, eq, isNull } from "drizzle-orm";
import { type AuditContext, auditedTx } from "../audit/audit.server";
import { recordSecurityEvent } from "../audit/security-events.server";
import type { StaffActor } from "../staff/actor";
import { StaffError } from "../staff/errors";
import { requirePermission } from "../staff/guard.server";

export type ApiKey = typeof apiKey.$inferSelect;

/** Requests a key may make per minute (counted across instances; the POS API answers 429 above it). */
export const API_REQUESTS_PER_MINUTE = 600;

/**
 * What a key may do beyond the till's everyday work (member lookup and balance, purchases, refunds, coupons),
 * which every key may do without a scope. An admin grants a scope when creating a key or later (audited).
 * `einvoice:read`: a member's e-invoice carrier and 統編 (ADR 041).
 */
export const API_KEY_SCOPES = ["einvoice:read"] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export function isApiKeyScope(value: unknown): value is ApiKeyScope {
  return typeof value === "string" && (API_KEY_SCOPES as readonly string[]).includes(value);
}

/** Whether the key was granted the scope. */
export function hasScope(key: Pick<ApiKey, "scopes">, scope: ApiKeyScope): boolean {
  return key.scopes.includes(scope);
}

/** The scopes as stored: known ones only, each once, in the table's order. */
function tidyScopes(scopes: readonly string[]): ApiKeyScope[] {
  return API_KEY_SCOPES.filter((scope) => scopes.includes(scope));
}

/**
 * A request refused for a missing scope, written to the audit log in its own transaction (a refused security
 * event): which key, which store, which scope, which endpoint.
 */
export async function recordScopeRefusal(
  db: Database,
  audit: AuditContext,
  key: Pick<ApiKey, "id">,
  refusal: { scope: ApiKeyScope; endpoint: string },
  now = new Date(),
): Promise<void> {
  // A failed security event: within the source's budget (ADR 020), so a till retrying cannot fill the log.
  await recordSecurityEvent(
    db,
    { context: audit, action: "api_key.scope_refused", targetType: "api_key", targetId: key.id, after: refusal },
    now,
  );
}

function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

/**
 * Creates a key for one store and returns its secret once ("hlpos_" + 256 random bits). Only a
 * SHA-256 is stored: the secret is random, so a slow password hash would add nothing.
 */
export async function createApiKey(
  db: Database,
  input: { storeId: string; name: string; scopes?: readonly ApiKeyScope[] },
): Promise<{ key: ApiKey; secret: string }> {
  const secret = `hlpos_${randomBytes(32).toString("base64url")}`;
  const [key] = await db
    .insert(apiKey)
    .values({
      storeId: input.storeId,
      name: input.name,
      prefix: secret.slice(0, 12),
      secretHash: hashSecret(secret),
      scopes: tidyScopes(input.scopes ?? []),
    })
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

/**
 * Active keys by secret hash, per instance (ADR 026). Any insert, revocation or other change to
 * `api_key` (not the once-a-minute lastUsedAt) empties it on every instance through the invalidation
 * bus, so a revoked key's next request is a 401 everywhere. Unknown secrets are never cached.
 */
const API_KEY_CACHE = { maxEntries: 1_000, ttlMs: 5 * 60_000, clearOn: ["k"] } as const;

/** The active key for a presented secret (its last-used time refreshed once a minute), or null. */
export async function authenticateApiKey(db: Database, secret: string, now = new Date()): Promise<ApiKey | null> {
  if (!secret.startsWith("hlpos_") || secret.length > 100) return null;
  const secretHash = hashSecret(secret);
  const cache = cacheRegion<ApiKey>(db, "api-keys", API_KEY_CACHE);
  let key = cache?.get(secretHash);
  if (!key) {
    const ticket = cache?.ticket() ?? 0;
    [key] = await db
      .select()
      .from(apiKey)
      .where(and(eq(apiKey.secretHash, secretHash), isNull(apiKey.revokedAt)));
    if (!key) return null;
    cache?.set(secretHash, key, ticket, []);
  }
  if (!key.lastUsedAt || now.getTime() - key.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    await db.update(apiKey).set({ lastUsedAt: now }).where(eq(apiKey.id, key.id));
    key.lastUsedAt = now;
  }
  return { ...key };
}

// ─── The console's key pages (admins, `apikeys.manage`; ADR 020: permission check and audit in one transaction) ──

/** Every key, newest first, with its store's name. */
export async function listApiKeys(db: Database, actor: StaffActor) {
  requirePermission(actor, "apikeys.manage");
  return db
    .select({
      id: apiKey.id,
      name: apiKey.name,
      prefix: apiKey.prefix,
      storeId: apiKey.storeId,
      storeName: store.name,
      createdAt: apiKey.createdAt,
      lastUsedAt: apiKey.lastUsedAt,
      revokedAt: apiKey.revokedAt,
      scopes: apiKey.scopes,
    })
    .from(apiKey)
    .innerJoin(store, eq(store.id, apiKey.storeId))
    .orderBy(desc(apiKey.createdAt))
    .limit(500);
}

/** A new key for a store, named; the secret is returned once (only its hash is kept). */
export async function createApiKeyInConsole(
  db: Database,
  actor: StaffActor,
  input: { storeId: string; name: string; scopes?: readonly ApiKeyScope[] },
  audit: AuditContext,
  now = new Date(),
): Promise<{ key: ApiKey; secret: string }> {
  requirePermission(actor, "apikeys.manage");
  const name = input.name.trim();
  if (!name || name.length > 50) throw new StaffError("invalid_name", "1–50 characters", "name");
  const [known] = await db.select({ id: store.id }).from(store).where(eq(store.id, input.storeId));
  if (!known) throw new StaffError("unknown_store", "Unknown store", "storeId");
  return auditedTx(db, audit, now, async (t, record) => {
    const created = await createApiKey(t, { storeId: input.storeId, name, scopes: input.scopes });
    await record("api_key.created", ["api_key", created.key.id], {
      after: { storeId: input.storeId, name, prefix: created.key.prefix, scopes: created.key.scopes },
    });
    return created;
  });
}

/** Revokes a key at once (its next request is a 401); one conditional update, audited once. */
export async function revokeApiKeyInConsole(
  db: Database,
  actor: StaffActor,
  id: string,
  audit: AuditContext,
  now = new Date(),
): Promise<boolean> {
  requirePermission(actor, "apikeys.manage");
  if (!/^[0-9a-f-]{36}$/i.test(id)) return false;
  return auditedTx(db, audit, now, async (t, record) => {
    const [revoked] = await t
      .update(apiKey)
      .set({ revokedAt: now })
      .where(and(eq(apiKey.id, id), isNull(apiKey.revokedAt)))
      .returning({ id: apiKey.id, name: apiKey.name });
    if (!revoked) return false;
    await record("api_key.revoked", ["api_key", id], { before: { revoked: false }, after: { revoked: true } });
    return true;
  });
}

/**
 * Sets an active key's scopes (the console's edit; ADR 041): one conditional update, audited with the scopes
 * before and after; nothing is written when they do not change. False for an unknown or revoked key.
 */
export async function setApiKeyScopesInConsole(
  db: Database,
  actor: StaffActor,
  id: string,
  scopes: readonly ApiKeyScope[],
  audit: AuditContext,
  now = new Date(),
): Promise<boolean> {
  requirePermission(actor, "apikeys.manage");
  if (!/^[0-9a-f-]{36}$/i.test(id)) return false;
  const next = tidyScopes(scopes);
  return auditedTx(db, audit, now, async (t, record) => {
    const [current] = await t
      .select({ scopes: apiKey.scopes })
      .from(apiKey)
      .where(and(eq(apiKey.id, id), isNull(apiKey.revokedAt)))
      .for("update");
    if (!current) return false;
    if (current.scopes.join(",") === next.join(",")) return true;
    await t.update(apiKey).set({ scopes: next }).where(eq(apiKey.id, id));
    await record("api_key.scopes_changed", ["api_key", id], {
      before: { scopes: current.scopes },
      after: { scopes: next },
    });
    return true;
  });
}
