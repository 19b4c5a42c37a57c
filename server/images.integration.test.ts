import { request as httpRequest } from "node:http";
import type { Database } from "@platform/db/client";
import type * as Schema from "@platform/db/schema";
import { and, eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as ImagesTesting from "../app/domain/images/testing.server";
import type * as StaffTestingModule from "../app/domain/staff/testing.server";
import type { TestStaff } from "../app/domain/staff/testing.server";
import { type DevApp, startDevApp } from "./testing/dev-app";

/**
 * Image uploads over HTTP (issue 14 item 3, ADR 028), on PGlite and on PostgreSQL (TEST_DATABASE_URL):
 * a phone photo with a GPS position becomes AVIF/WebP/JPEG variants without any EXIF, served with
 * immutable addresses; every bad file gets its 4xx (a renamed PDF, a zip bomb, 20 MB, a 30,000 × 30,000
 * PNG, a decompression bomb, a HEIC this build cannot read); only `catalog.edit` may upload; audited.
 */

let app: DevApp;
let base: string;
let db: Database;
let schema: typeof Schema;
let files: typeof ImagesTesting;
let admin: TestStaff;
let manager: TestStaff;
let clerk: TestStaff;

beforeAll(async () => {
  app = await startDevApp({ APP_ENV: "test" }, "images");
  base = app.base;
  db = app.running.database.db;
  const load = (file: string) => app.vite.ssrLoadModule(file);
  schema = (await load("/platform/db/schema/index.ts")) as typeof Schema;
  files = (await load("/app/domain/images/testing.server.ts")) as typeof ImagesTesting;
  const staffTesting = (await load("/app/domain/staff/testing.server.ts")) as typeof StaffTestingModule;
  const secret = app.running.config.secrets.session;
  admin = await staffTesting.createTestStaff(db, secret, { role: "admin" });
  manager = await staffTesting.createTestStaff(db, secret, { role: "manager", storeIds: ["xinyi-flagship"] });
  clerk = await staffTesting.createTestStaff(db, secret, { role: "staff", storeIds: ["xinyi-flagship"] });
}, 180_000);

afterAll(() => app?.stop());

const cookieOf = (staff: TestStaff) => `han_console=${staff.token}`;

function upload(
  body: Uint8Array,
  alt: { altZh?: string; altEn?: string } = { altZh: "測試照片" },
  cookie = cookieOf(admin),
) {
  const query = new URLSearchParams(Object.entries(alt).filter(([, v]) => v !== undefined) as [string, string][]);
  return fetch(`${base}/admin/images/upload?${query}`, {
    method: "POST",
    body: body as Uint8Array<ArrayBuffer>,
    headers: { origin: base, cookie, "content-type": "image/jpeg" },
    redirect: "manual",
  });
}

async function errorOf(response: Response) {
  return { status: response.status, ...((await response.json()) as { error: { code: string; field: string } }).error };
}

describe("uploading a phone photo", () => {
  it("stores variants without EXIF (no GPS), serves them immutable, and audits the upload", async () => {
    const photo = await files.photoJpeg(2000, 1500);
    expect(files.exifHasGps((await sharp(photo).metadata()).exif)).toBe(true);
    const response = await upload(photo, { altZh: "信義旗艦店的大理石牆", altEn: "Marble wall at Xinyi" });
    expect(response.status).toBe(201);
    const { image, created } = (await response.json()) as {
      created: boolean;
      image: { id: string; hash: string; width: number; height: number; variants: { width: number; format: string }[] };
    };
    expect(created).toBe(true);
    expect(image).toMatchObject({ width: 2000, height: 1500 });
    expect(image.variants.map((v) => `${v.width}.${v.format}`).sort()).toEqual(
      ["480", "960", "1600"].flatMap((w) => [`${w}.avif`, `${w}.jpeg`, `${w}.webp`]).sort(),
    );

    for (const variant of image.variants) {
      const ext = variant.format === "jpeg" ? "jpg" : variant.format;
      const served = await fetch(`${base}/media/${image.hash}/${variant.width}.${ext}`);
      expect(served.status).toBe(200);
      expect(served.headers.get("content-type")).toBe(`image/${variant.format}`);
      expect(served.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(served.headers.get("x-content-type-options")).toBe("nosniff");
      const etag = served.headers.get("etag");
      expect(etag).toMatch(/^"[0-9a-f]{32}-/);
      const bytes = Buffer.from(await served.arrayBuffer());
      const meta = await sharp(bytes).metadata();
      expect(meta.width).toBe(variant.width);
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(bytes.includes(Buffer.from("Exif\0\0", "latin1"))).toBe(false);
      expect(bytes.includes(Buffer.from("TestPhone"))).toBe(false);
      const again = await fetch(`${base}/media/${image.hash}/${variant.width}.${ext}`, {
        headers: { "if-none-match": etag ?? "" },
      });
      expect(again.status).toBe(304);
    }
    // What is stored is what was served: no row of media_object carries EXIF either.
    const stored = await db
      .select({ key: schema.mediaObject.key, data: schema.mediaObject.data })
      .from(schema.mediaObject)
      .where(sql`${schema.mediaObject.key} like ${`media/${image.hash}/%`}`);
    expect(stored).toHaveLength(9);
    for (const row of stored) expect((await sharp(Buffer.from(row.data)).metadata()).exif).toBeUndefined();

    const [audit] = await db
      .select()
      .from(schema.auditLog)
      .where(and(eq(schema.auditLog.action, "image.uploaded"), eq(schema.auditLog.targetId, image.id)));
    expect(audit?.actorUserId).toBe(admin.userId);

    // Unknown widths, formats and hashes are 404s; other /media paths still reach the demo textures.
    expect((await fetch(`${base}/media/${image.hash}/1200.jpg`)).status).toBe(404);
    expect((await fetch(`${base}/media/${image.hash}/960.png`)).status).toBe(404);
    expect((await fetch(`${base}/media/${"0".repeat(32)}/960.jpg`)).status).toBe(404);

    // The same file again is the same image, not a second one.
    const twice = await upload(photo, { altZh: "另一個說明" });
    expect(twice.status).toBe(200);
    expect(((await twice.json()) as { image: { id: string }; created: boolean }).image.id).toBe(image.id);

    // The library lists it with its alt texts, and finds it by either.
    const page = await (await fetch(`${base}/admin/images?q=Marble`, { headers: { cookie: cookieOf(admin) } })).text();
    expect(page).toContain("信義旗艦店的大理石牆");
    expect(page).toContain(`/media/${image.hash}/480.avif 480w`);
    const none = await (
      await fetch(`${base}/admin/images?q=nothing-like-it`, { headers: { cookie: cookieOf(admin) } })
    ).text();
    expect(none).not.toContain("信義旗艦店的大理石牆");
  }, 120_000);
});

describe("bad files", () => {
  it("refuses a renamed PDF and a zip bomb (not images) with 415", { timeout: 60_000 }, async () => {
    expect(await errorOf(await upload(files.pdfBytes()))).toMatchObject({
      status: 415,
      code: "not_image",
      field: "file",
    });
    expect(await errorOf(await upload(files.zipBomb()))).toMatchObject({ status: 415, code: "not_image" });
  });

  it("refuses a 30,000 × 30,000 PNG and a decompression bomb with 422, and a HEIC it cannot read with 415", async () => {
    expect(await errorOf(await upload(files.blankPng(30_000, 30_000)))).toMatchObject({
      status: 422,
      code: "too_many_pixels",
    });
    expect(await errorOf(await upload(files.blankPng(8_000, 8_000)))).toMatchObject({
      status: 422,
      code: "too_many_pixels",
    });
    const heic = await errorOf(await upload(await files.heicLike()));
    expect(heic).toMatchObject({ status: 415, code: "heic_unsupported" });
  });

  it("answers 413 to a 20 MB upload before the body is sent", async () => {
    const total = 20 * 1024 * 1024;
    const url = new URL(`${base}/admin/images/upload?altZh=x`);
    const answer = await new Promise<{ status: number; sent: number }>((resolve, reject) => {
      let sent = 0;
      const req = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: `${url.pathname}${url.search}`,
          method: "POST",
          headers: { origin: base, cookie: cookieOf(admin), "content-type": "image/jpeg", "content-length": total },
        },
        (res) => {
          res.resume();
          resolve({ status: res.statusCode ?? 0, sent });
          req.destroy();
        },
      );
      req.on("error", (error) => (sent < total ? undefined : reject(error)));
      // The first megabyte only: the answer comes without the other 19.
      const chunk = Buffer.alloc(1024 * 1024);
      req.write(chunk, () => {
        sent += chunk.length;
      });
    });
    expect(answer.status).toBe(413);
    expect(answer.sent).toBeLessThan(total);
  });

  it("refuses an upload without the Chinese alt text (400, beside its field)", async () => {
    const photo = await files.photoJpeg(100, 80);
    expect(await errorOf(await upload(photo, { altZh: "  " }))).toMatchObject({
      status: 400,
      code: "alt_required",
      field: "altZh",
    });
    expect(await errorOf(await upload(photo, { altZh: "好", altEn: "x".repeat(201) }))).toMatchObject({
      status: 400,
      code: "alt_too_long",
      field: "altEn",
    });
  });
});

describe("who may upload and delete", () => {
  it("answers 403 without a console session and to staff without catalog.edit; the library too", async () => {
    const photo = await files.photoJpeg(120, 90);
    expect((await upload(photo, { altZh: "x" }, "")).status).toBe(403);
    expect((await upload(photo, { altZh: "x" }, cookieOf(manager))).status).toBe(403);
    expect((await upload(photo, { altZh: "x" }, cookieOf(clerk))).status).toBe(403);
    expect((await fetch(`${base}/admin/images`, { headers: { cookie: cookieOf(manager) } })).status).toBe(403);
    const count = await db.select({ n: sql<number>`count(*)::int` }).from(schema.mediaImage);
    const before = count[0]?.n;
    expect((await upload(photo, { altZh: "x" }, cookieOf(clerk))).status).toBe(403);
    expect((await db.select({ n: sql<number>`count(*)::int` }).from(schema.mediaImage))[0]?.n).toBe(before);
  });

  it("deletes an unused image (its addresses then 404) and refuses one still referred to", {
    timeout: 120_000,
  }, async () => {
    const post = (fields: Record<string, string>) =>
      fetch(`${base}/admin/images`, {
        method: "POST",
        body: new URLSearchParams(fields),
        headers: { origin: base, cookie: cookieOf(admin) },
        redirect: "manual",
      });
    const made = async (width: number) =>
      (
        (await (await upload(await files.photoJpeg(width, 300), { altZh: `刪除測試 ${width}` })).json()) as {
          image: { id: string; hash: string };
        }
      ).image;
    const unused = await made(401);
    expect((await post({ intent: "delete", id: unused.id })).status).toBe(302);
    expect((await fetch(`${base}/media/${unused.hash}/401.jpg`)).status).toBe(404);
    const [audit] = await db
      .select()
      .from(schema.auditLog)
      .where(and(eq(schema.auditLog.action, "image.deleted"), eq(schema.auditLog.targetId, unused.id)));
    expect(audit).toBeDefined();

    // Another table referring to the image (as the stores' and materials' images will).
    const used = await made(402);
    await db.execute(sql`create table image_user_test (image_id uuid not null references media_image(id))`);
    await db.execute(sql`insert into image_user_test values (${used.id})`);
    const refused = await post({ intent: "delete", id: used.id });
    expect(refused.status).toBe(409);
    expect((await fetch(`${base}/media/${used.hash}/402.jpg`)).status).toBe(200);

    // Alt texts can be changed (audited), and a blank Chinese one is refused beside its field.
    expect((await post({ intent: "alt", id: used.id, altZh: "新的說明", altEn: "New text" })).status).toBe(200);
    const [row] = await db.select().from(schema.mediaImage).where(eq(schema.mediaImage.id, used.id));
    expect(row?.altEn).toBe("New text");
    expect((await post({ intent: "alt", id: used.id, altZh: "", altEn: "" })).status).toBe(400);
  });
});
