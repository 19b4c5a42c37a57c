import { createHash } from "node:crypto";
import type { MediaConfig } from "@platform/config";
import type { Database } from "@platform/db/client";
import { mediaObject } from "@platform/db/schema";
import { AwsClient } from "aws4fetch";
import { eq, inArray } from "drizzle-orm";

/**
 * Where variants' bytes are kept (ADR 028). Two stores behind one interface:
 * - `database` (the default): the media_object table, written in the same transaction as the image's
 *   row and its audit entry; every instance on the same database sees the same objects, and it works
 *   on the embedded database too.
 * - `s3`: an S3-compatible bucket (AWS S3, Cloudflare R2, MinIO…), spoken to over HTTP with SigV4
 *   signatures (aws4fetch). Objects are written before the transaction and removed again if it fails.
 * The app always serves the bytes itself (/media/…), so the bucket stays private and the CSP stays 'self'.
 */
export type StoredObject = { body: Uint8Array; contentType: string };

export type MediaStore = {
  kind: MediaConfig["storage"];
  /** Whether put/remove take part in the caller's database transaction (the database store). */
  transactional: boolean;
  put(db: Database, key: string, body: Uint8Array, contentType: string): Promise<void>;
  get(db: Database, key: string): Promise<StoredObject | null>;
  remove(db: Database, keys: readonly string[]): Promise<void>;
};

export const databaseMediaStore: MediaStore = {
  kind: "database",
  transactional: true,
  async put(db, key, body, contentType) {
    await db.insert(mediaObject).values({ key, contentType, data: body }).onConflictDoNothing();
  },
  async get(db, key) {
    const [row] = await db
      .select({ contentType: mediaObject.contentType, data: mediaObject.data })
      .from(mediaObject)
      .where(eq(mediaObject.key, key));
    return row ? { body: row.data, contentType: row.contentType } : null;
  },
  async remove(db, keys) {
    if (keys.length > 0) await db.delete(mediaObject).where(inArray(mediaObject.key, [...keys]));
  },
};

export class MediaStoreError extends Error {
  override name = "MediaStoreError";
}

type S3Settings = Extract<MediaConfig, { storage: "s3" }>;

/** An S3-compatible bucket; `fetchImpl` only for tests. Payloads are signed too (x-amz-content-sha256). */
export function s3MediaStore(settings: S3Settings, fetchImpl: typeof fetch = fetch): MediaStore {
  const client = new AwsClient({
    accessKeyId: settings.accessKeyId,
    secretAccessKey: settings.secretAccessKey,
    region: settings.region,
    service: "s3",
  });
  const base = `${settings.endpoint.replace(/\/+$/, "")}/${encodeURIComponent(settings.bucket)}`;
  const objectUrl = (key: string) => `${base}/${key.split("/").map(encodeURIComponent).join("/")}`;
  const send = async (key: string, init: RequestInit & { body?: Uint8Array }) => {
    const payload = init.body ?? new Uint8Array();
    const headers = new Headers(init.headers);
    headers.set("x-amz-content-sha256", createHash("sha256").update(payload).digest("hex"));
    const signed = await client.sign(objectUrl(key), { ...init, headers });
    return fetchImpl(signed);
  };
  const fail = async (what: string, key: string, response: Response): Promise<never> => {
    const text = (await response.text().catch(() => "")).slice(0, 300);
    throw new MediaStoreError(`S3 ${what} ${key} answered ${response.status}: ${text}`);
  };
  return {
    kind: "s3",
    transactional: false,
    async put(_db, key, body, contentType) {
      const response = await send(key, {
        method: "PUT",
        body: body as Uint8Array<ArrayBuffer>,
        headers: { "content-type": contentType },
      });
      if (!response.ok) await fail("PUT", key, response);
      await response.body?.cancel();
    },
    async get(_db, key) {
      const response = await send(key, { method: "GET" });
      if (response.status === 404) {
        await response.body?.cancel();
        return null;
      }
      if (!response.ok) await fail("GET", key, response);
      return {
        body: new Uint8Array(await response.arrayBuffer()),
        contentType: response.headers.get("content-type") ?? "application/octet-stream",
      };
    },
    async remove(_db, keys) {
      for (const key of keys) {
        const response = await send(key, { method: "DELETE" });
        if (!response.ok && response.status !== 404) await fail("DELETE", key, response);
        await response.body?.cancel();
      }
    },
  };
}

const s3Stores = new WeakMap<S3Settings, MediaStore>();

/** The store the configuration names (one client per configuration). */
export function mediaStoreFor(config: MediaConfig): MediaStore {
  if (config.storage === "database") return databaseMediaStore;
  let store = s3Stores.get(config);
  if (!store) {
    store = s3MediaStore(config);
    s3Stores.set(config, store);
  }
  return store;
}
