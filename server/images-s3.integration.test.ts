import type { Database } from "@platform/db/client";
import type * as Schema from "@platform/db/schema";
import { sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as ImagesTesting from "../app/domain/images/testing.server";
import type * as StaffTestingModule from "../app/domain/staff/testing.server";
import type { TestStaff } from "../app/domain/staff/testing.server";
import { type DevApp, startDevApp } from "./testing/dev-app";
import { type FakeS3, startFakeS3 } from "./testing/fake-s3";

/**
 * The app with MEDIA_STORAGE=s3 (ADR 028) against a local S3-compatible server that checks every SigV4
 * signature: the variants go to the bucket (none to media_object), are served from it, and leave it on delete.
 */

let s3: FakeS3;
let app: DevApp;
let db: Database;
let schema: typeof Schema;
let files: typeof ImagesTesting;
let admin: TestStaff;

beforeAll(async () => {
  s3 = await startFakeS3();
  app = await startDevApp(
    {
      APP_ENV: "test",
      MEDIA_STORAGE: "s3",
      S3_ENDPOINT: s3.endpoint,
      S3_REGION: s3.region,
      S3_BUCKET: s3.bucket,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    },
    "images_s3",
  );
  db = app.running.database.db;
  const load = (file: string) => app.vite.ssrLoadModule(file);
  schema = (await load("/platform/db/schema/index.ts")) as typeof Schema;
  files = (await load("/app/domain/images/testing.server.ts")) as typeof ImagesTesting;
  const staffTesting = (await load("/app/domain/staff/testing.server.ts")) as typeof StaffTestingModule;
  admin = await staffTesting.createTestStaff(db, app.running.config.secrets.session, { role: "admin" });
}, 180_000);

afterAll(async () => {
  await app?.stop();
  await s3?.close();
});

describe("images in an S3-compatible bucket", () => {
  it("uploads to the bucket with signed requests, serves from it, and removes on delete", {
    timeout: 120_000,
  }, async () => {
    const cookie = `han_console=${admin.token}`;
    const response = await fetch(`${app.base}/admin/images/upload?altZh=${encodeURIComponent("桶裡的照片")}`, {
      method: "POST",
      body: (await files.photoJpeg(700, 500)) as Uint8Array<ArrayBuffer>,
      headers: { origin: app.base, cookie, "content-type": "image/jpeg" },
    });
    expect(response.status).toBe(201);
    const { image } = (await response.json()) as { image: { id: string; hash: string } };
    expect([...s3.objects.keys()].sort()).toEqual(
      ["480.avif", "480.jpg", "480.webp", "700.avif", "700.jpg", "700.webp"].map((f) => `media/${image.hash}/${f}`),
    );
    expect(s3.log.every((line) => !line.endsWith(" 403"))).toBe(true);
    const [{ n } = { n: -1 }] = await db.select({ n: sql<number>`count(*)::int` }).from(schema.mediaObject);
    expect(n).toBe(0);

    const served = await fetch(`${app.base}/media/${image.hash}/700.webp`);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/webp");
    const bytes = Buffer.from(await served.arrayBuffer());
    expect(bytes.equals(s3.objects.get(`media/${image.hash}/700.webp`)?.body ?? Buffer.alloc(0))).toBe(true);
    expect((await sharp(bytes).metadata()).exif).toBeUndefined();

    const deleted = await fetch(`${app.base}/admin/images`, {
      method: "POST",
      body: new URLSearchParams({ intent: "delete", id: image.id }),
      headers: { origin: app.base, cookie },
      redirect: "manual",
    });
    expect(deleted.status).toBe(302);
    expect(s3.objects.size).toBe(0);
    expect((await fetch(`${app.base}/media/${image.hash}/700.webp`)).status).toBe(404);
  });
});
