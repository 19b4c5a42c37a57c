import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { type Database, rowsOf } from "@platform/db/client";
import { sql } from "drizzle-orm";
import { derivedKey } from "~/lib/derived-key.server";

/**
 * An endpoint's signing secrets at rest (ADR 054, "Later (2026-12-07, the secrets at rest)"): AES-256-GCM under a key
 * derived from the server secret (`SESSION_SECRET`, its own HKDF label, as the staff's TOTP secrets and the offline
 * cards' device secrets), bound to the endpoint's id, so a copy of the database alone (a backup, a replica) cannot
 * sign a webhook the brand's systems would accept, and a sealed secret copied onto another endpoint does not open.
 * Stored as `sealed.v1.` + base64url(iv | ciphertext | tag). A secret stored before (plain `whsec_…`) is read as it is
 * and sealed at the next start (`sealStoredWebhookSecrets`).
 */
const PREFIX = "sealed.v1.";
function keyOf(serverSecret: string) {
  return derivedKey(serverSecret, "webhook-endpoint-secret v1");
}

export function sealWebhookSecret(serverSecret: string, endpointId: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyOf(serverSecret), iv);
  cipher.setAAD(Buffer.from(endpointId));
  const body = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return PREFIX + Buffer.concat([iv, body, cipher.getAuthTag()]).toString("base64url");
}

/** The secret to sign with. Throws when the stored value was sealed under another server secret or endpoint. */
export function openWebhookSecret(serverSecret: string, endpointId: string, stored: string): string {
  if (!stored.startsWith(PREFIX)) return stored;
  const bytes = Buffer.from(stored.slice(PREFIX.length), "base64url");
  const decipher = createDecipheriv("aes-256-gcm", keyOf(serverSecret), bytes.subarray(0, 12));
  decipher.setAAD(Buffer.from(endpointId));
  decipher.setAuthTag(bytes.subarray(bytes.length - 16));
  return Buffer.concat([decipher.update(bytes.subarray(12, bytes.length - 16)), decipher.final()]).toString("utf8");
}

export function isSealed(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

/**
 * Seals every secret still stored in plain text (written before 2026-12-07, or by hand), each row in its own
 * statement guarded by the plain value it read, so two instances starting at once seal a secret once. Run at start.
 */
export async function sealStoredWebhookSecrets(db: Database, serverSecret: string): Promise<number> {
  const rows = rowsOf<{ id: string; secret: string; previous_secret: string | null }>(
    await db.execute(sql`select id, secret, previous_secret from webhook_endpoint
      where secret not like ${`${PREFIX}%`} or previous_secret not like ${`${PREFIX}%`}`),
  );
  let sealed = 0;
  for (const row of rows) {
    const seal = (v: string | null) => (v === null || isSealed(v) ? v : sealWebhookSecret(serverSecret, row.id, v));
    const result = await db.execute(sql`update webhook_endpoint
      set secret = ${seal(row.secret)}, previous_secret = ${seal(row.previous_secret)}
      where id = ${row.id}::uuid and secret = ${row.secret}
        and previous_secret is not distinct from ${row.previous_secret}::text
      returning id`);
    sealed += rowsOf(result).length;
  }
  return sealed;
}
