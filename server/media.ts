import type { AppConfig } from "@platform/config";
import type { Database } from "@platform/db/client";
import type { Logger } from "@platform/logger";
import type { NextFunction, Request, Response } from "express";
import { readVariant } from "../app/domain/images/images.server";
import { databaseMediaStore, mediaStoreFor } from "../app/domain/images/storage.server";
import { MEDIA_HASH } from "../app/domain/images/urls";

/**
 * GET /media/<hash>/<width>.<avif|webp|jpg>: an uploaded image's variant (ADR 028). The address names the
 * content, so the answer is cached for a year without revalidation (`immutable`), with a strong ETag for
 * the rare revalidation. Served here, before the page caches, from whichever store holds it. Other paths
 * under /media (the demo's drawn textures) go on to their React Router route.
 */
export function mediaHandler({ db, config, logger }: { db: Database; config: AppConfig; logger: Logger }) {
  const stores = { database: databaseMediaStore, configured: mediaStoreFor(config.media) };
  return async (req: Request, res: Response, next: NextFunction) => {
    const hash = String(req.params.hash ?? "");
    const file = String(req.params.file ?? "");
    if (!MEDIA_HASH.test(hash)) return next();
    const etag = `"${hash}-${file}"`;
    try {
      const found = await readVariant(db, stores, hash, file);
      if (!found) {
        res.setHeader("Cache-Control", "no-store");
        res.status(404).type("text/plain").send("Not found");
        return;
      }
      res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
      res.setHeader("ETag", etag);
      res.setHeader("X-Content-Type-Options", "nosniff");
      res.setHeader("Content-Type", found.contentType);
      res.setHeader("Cross-Origin-Resource-Policy", "same-origin");
      if (
        req
          .get("if-none-match")
          ?.split(",")
          .some((tag) => tag.trim().replace(/^W\//, "") === etag)
      ) {
        res.status(304).end();
        return;
      }
      res.setHeader("Content-Length", String(found.body.byteLength));
      res.end(
        req.method === "HEAD"
          ? undefined
          : Buffer.from(found.body.buffer, found.body.byteOffset, found.body.byteLength),
      );
    } catch (err) {
      logger.error({ err, hash, file }, "media read failed");
      res.setHeader("Cache-Control", "no-store");
      res.status(503).type("text/plain").send("Temporarily unavailable");
    }
  };
}
