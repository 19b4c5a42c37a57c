import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpCache } from "./http-cache";

/**
 * The render cache follows the catalogue version (ADR 027): a page stays cached for its whole
 * `renderCacheMs` until the version moves on (a publish on any instance), then it is rendered anew,
 * with a new ETag.
 */
let version = 1;
let renders = 0;
let server: ReturnType<ReturnType<typeof express>["listen"]>;
let base = "";

beforeAll(async () => {
  const app = express();
  app.use(httpCache({ renderCacheMs: 60_000, contentVersion: () => version }));
  app.get("/page", (_req, res) => {
    renders += 1;
    res.setHeader("Cache-Control", "public, max-age=0, s-maxage=60");
    res.end(`<p>render ${renders} of version ${version}</p>`);
  });
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

describe("render cache and the catalogue version", () => {
  it("serves the stored page until the version changes, then renders (and tags) it anew", async () => {
    const first = await fetch(`${base}/page`);
    expect(await first.text()).toBe("<p>render 1 of version 1</p>");
    const hit = await fetch(`${base}/page`);
    expect(hit.headers.get("x-render-cache")).toBe("hit");
    expect(await hit.text()).toBe("<p>render 1 of version 1</p>");

    version = 2;
    const fresh = await fetch(`${base}/page`, { headers: { "if-none-match": first.headers.get("etag") ?? "" } });
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get("x-render-cache")).toBeNull();
    expect(fresh.headers.get("etag")).not.toBe(first.headers.get("etag"));
    expect(await fresh.text()).toBe("<p>render 2 of version 2</p>");
  });
});
