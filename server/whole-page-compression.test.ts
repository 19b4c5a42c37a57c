import http from "node:http";
import type { AddressInfo } from "node:net";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WHOLE_PAGE_THRESHOLD, wholePageCompression } from "./whole-page-compression";

const page = `<!DOCTYPE html><html lang="zh-Hant-TW"><body>${"<p>漢生活・會員中心</p>".repeat(200)}</body></html>`;
let releaseSecondPart: () => void = () => undefined;
let server: http.Server;
let base: string;

beforeAll(async () => {
  const app = express();
  const pageCompression = compression({ level: 3 });
  const wholePage = wholePageCompression({ gzipLevel: 3, brotliQuality: 2 });
  // As server/app.ts mounts it: inside the compression middleware.
  app.use((req: Request, res: Response, next: NextFunction) =>
    pageCompression(req, res, () => wholePage(req, res, next)),
  );
  app.get("/page", (_req, res) => {
    res.type("html");
    // As React Router's adapter writes a document: a piece, a flush, the end.
    res.write(Buffer.from(page.slice(0, 1000)));
    (res as Response & { flush: () => void }).flush();
    Promise.resolve().then(() => res.end(page.slice(1000)));
  });
  app.get("/small", (_req, res) => res.type("html").end("<p>短</p>"));
  app.get("/json", (_req, res) => res.json({ items: Array.from({ length: 200 }, (_, i) => ({ i, name: "石材" })) }));
  app.get("/no-transform", (_req, res) => res.type("html").set("Cache-Control", "no-transform").end(page));
  app.get("/css", (_req, res) => res.type("css").end(`body{color:red}\n`.repeat(200)));
  app.get("/streamed", (_req, res) => {
    res.type("html");
    res.write(page.slice(0, 2000));
    (res as Response & { flush: () => void }).flush();
    new Promise<void>((resolve) => {
      releaseSecondPart = resolve;
    }).then(() => res.end(page.slice(2000)));
  });
  app.get("/callbacks", (_req, res) => {
    res.type("html");
    res.write(page, () => {
      res.end(() => undefined);
    });
  });
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: Buffer; chunks: Buffer[] };

function get(path: string, headers: Record<string, string> = { "accept-encoding": "gzip" }, method = "GET") {
  return new Promise<Answer>((resolve, reject) => {
    const req = http.request(`${base}${path}`, { headers, method }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => {
        chunks.push(chunk);
        if (path === "/streamed" && chunks.length === 1) releaseSecondPart();
      });
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), chunks }),
      );
    });
    req.on("error", reject);
    req.end();
  });
}

describe("whole-page compression", () => {
  it("sends a page that is complete when written gzipped in one piece, with its length", async () => {
    const answer = await get("/page");
    expect(answer.headers["content-encoding"]).toBe("gzip");
    expect(answer.headers["transfer-encoding"]).toBeUndefined();
    expect(Number(answer.headers["content-length"])).toBe(answer.body.length);
    expect(answer.headers.vary).toMatch(/Accept-Encoding/);
    expect(gunzipSync(answer.body).toString("utf8")).toBe(page);

    const json = await get("/json");
    expect(json.headers["content-encoding"]).toBe("gzip");
    expect(json.headers["content-length"]).toBeDefined();
    expect(JSON.parse(gunzipSync(json.body).toString("utf8")).items).toHaveLength(200);
  });

  it("sends brotli to a client that takes it, whatever the order of its header, unless it weighs gzip higher", async () => {
    for (const acceptEncoding of ["gzip, deflate, br, zstd", "br", "br;q=1, gzip;q=1"]) {
      const answer = await get("/page", { "accept-encoding": acceptEncoding });
      expect(answer.headers["content-encoding"]).toBe("br");
      expect(answer.headers["transfer-encoding"]).toBeUndefined();
      expect(Number(answer.headers["content-length"])).toBe(answer.body.length);
      expect(answer.headers.vary).toMatch(/Accept-Encoding/);
      expect(brotliDecompressSync(answer.body).toString("utf8")).toBe(page);
    }
    const gzipFirst = await get("/page", { "accept-encoding": "br;q=0.5, gzip" });
    expect(gzipFirst.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzipFirst.body).toString("utf8")).toBe(page);

    const refused = await get("/page", { "accept-encoding": "br;q=0, gzip;q=0" });
    expect(refused.headers["content-encoding"]).toBeUndefined();
    expect(refused.body.toString("utf8")).toBe(page);
  });

  it("streams a response still being written, through the compression middleware, without waiting for its end", async () => {
    // The client has the first part before the server writes the second (the test's server waits for it).
    const answer = await get("/streamed");
    expect(answer.headers["content-encoding"]).toBe("gzip");
    expect(answer.headers["transfer-encoding"]).toBe("chunked");
    expect(answer.chunks.length).toBeGreaterThan(1);
    expect(gunzipSync(answer.body).toString("utf8")).toBe(page);
  });

  it("leaves small bodies, no-transform, other types, HEAD and clients without gzip as they were", async () => {
    const small = await get("/small");
    expect(Buffer.byteLength("<p>短</p>")).toBeLessThan(WHOLE_PAGE_THRESHOLD);
    expect(small.headers["content-encoding"]).toBeUndefined();
    expect(small.body.toString("utf8")).toBe("<p>短</p>");

    const noTransform = await get("/no-transform");
    expect(noTransform.headers["content-encoding"]).toBeUndefined();
    expect(noTransform.body.toString("utf8")).toBe(page);

    // CSS is not this middleware's: the compression middleware streams it as before.
    const css = await get("/css");
    expect(css.headers["content-encoding"]).toBe("gzip");
    expect(css.headers["transfer-encoding"]).toBe("chunked");

    const identity = await get("/page", { "accept-encoding": "identity" });
    expect(identity.headers["content-encoding"]).toBeUndefined();
    expect(identity.body.toString("utf8")).toBe(page);

    const head = await get("/page", { "accept-encoding": "gzip" }, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
  });

  it("calls the write and end callbacks it is given", async () => {
    const answer = await get("/callbacks");
    expect(gunzipSync(answer.body).toString("utf8")).toBe(page);
  });
});
