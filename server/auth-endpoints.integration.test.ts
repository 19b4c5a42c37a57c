import { mkdtempSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadConfig } from "@platform/config";
import { type DatabaseHandle, openDatabase } from "@platform/db/client";
import { createTestDatabase, type TestDatabase } from "@platform/testing/database";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Auth, createAuth } from "../app/domain/auth/auth.server";
import { AUTH_BASE_PATH, AUTH_HTTP_ALLOWLIST, mountAuthEndpoints } from "./auth-endpoints";

/**
 * Only the better-auth endpoints our pages call are reachable over HTTP (issue 11, item 5; ADR 019).
 * The library's own list of endpoints (`auth.api`, each with its path and methods) is walked, so an
 * endpoint a library upgrade adds is refused until someone adds it to the allowlist on purpose.
 */
let testDb: TestDatabase;
let database: DatabaseHandle;
let auth: Auth;
let server: Server;
let base: string;
let dataDir: string;

type LibraryEndpoint = { name: string; path: string; methods: string[] };

function libraryEndpoints(): LibraryEndpoint[] {
  return Object.entries(auth.api as Record<string, { path?: string; options?: { method?: string | string[] } }>)
    .filter(([, endpoint]) => typeof endpoint.path === "string") // no path: server-only, never on the router
    .map(([name, endpoint]) => {
      const method = endpoint.options?.method ?? "GET";
      return { name, path: endpoint.path as string, methods: (Array.isArray(method) ? method : [method]) as string[] };
    });
}

function call(method: string, pathname: string) {
  return fetch(`${base}${pathname}`, {
    method,
    headers: method === "GET" ? {} : { "content-type": "application/json" },
    body: method === "GET" ? undefined : "{}",
  });
}

beforeAll(async () => {
  testDb = await createTestDatabase({ label: "auth_endpoints", migrated: true });
  database = await openDatabase(testDb.config);
  await database.migrate();
  dataDir = mkdtempSync(path.join(tmpdir(), "auth-endpoints-"));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent" });
  auth = createAuth({ db: database.db, config });
  const app = express();
  mountAuthEndpoints(app, auth);
  server = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await database?.close();
  await testDb?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("better-auth over HTTP", () => {
  it("allows only endpoints the library has, with the library's method", () => {
    const endpoints = libraryEndpoints();
    expect(endpoints.length).toBeGreaterThan(30);
    for (const entry of AUTH_HTTP_ALLOWLIST) {
      const found = endpoints.find((e) => e.path === entry.path);
      expect(found, entry.path).toBeDefined();
      expect(found?.methods).toContain(entry.method);
    }
  });

  it("answers 404 for every other endpoint of the library, with every method it accepts", async () => {
    const reachable: string[] = [];
    for (const endpoint of libraryEndpoints()) {
      const pathname = `${AUTH_BASE_PATH}${endpoint.path.replace(/:[^/]+/g, "line")}`;
      for (const method of endpoint.methods) {
        if (AUTH_HTTP_ALLOWLIST.some((e) => e.method === method && e.path === endpoint.path)) continue;
        const response = await call(method, pathname);
        if (response.status !== 404) reachable.push(`${method} ${pathname} → ${response.status} (${endpoint.name})`);
        await response.body?.cancel();
      }
    }
    expect(reachable).toEqual([]);
  });

  it("refuses the endpoints that bypassed our rules: change-password, list-sessions", async () => {
    const changed = await call("POST", "/api/auth/change-password");
    expect(changed.status).toBe(404);
    expect(await changed.json()).toEqual({ error: { code: "not_found", message: "Not found" } });
    expect((await call("GET", "/api/auth/list-sessions")).status).toBe(404);
    expect((await call("POST", "/api/auth/revoke-sessions")).status).toBe(404);
    expect((await call("GET", "/api/auth/get-session")).status).toBe(404);
  });

  it("reaches the library for the allowlisted endpoints", async () => {
    // Logging in with a passkey needs no session: the options come back.
    const options = await call("GET", "/api/auth/passkey/generate-authenticate-options");
    expect(options.status).toBe(200);
    expect(await options.json()).toMatchObject({ challenge: expect.any(String) });
    // Adding one needs a session: the library itself answers 401, not our 404.
    const register = await call("GET", "/api/auth/passkey/generate-register-options");
    expect(register.status).toBe(401);
    await register.body?.cancel();
  });

  it("refuses other spellings and methods of an allowlisted path", async () => {
    for (const [method, pathname] of [
      ["GET", "/api/auth/passkey/generate-authenticate-options/"],
      ["GET", "/api/auth/Passkey/generate-authenticate-options"],
      ["GET", "/api/auth/passkey%2Fgenerate-authenticate-options"],
      ["GET", "/api/auth//passkey/generate-authenticate-options"],
      ["POST", "/api/auth/passkey/generate-authenticate-options"],
      ["GET", "/api/auth/passkey/verify-authentication"],
      ["DELETE", "/api/auth/passkey/verify-authentication"],
      ["GET", "/api/auth/ok"],
    ] as const) {
      const response = await call(method, pathname);
      expect(response.status, `${method} ${pathname}`).toBe(404);
      await response.body?.cancel();
    }
  });
});
