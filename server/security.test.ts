import type { Request, Response } from "express";
import { describe, expect, it, vi } from "vitest";
import { apiSecurityHeaders, contentSecurityPolicy, createNonce, originCheck, securityHeaders } from "./security";

const directives = (policy: string) =>
  new Map(
    policy.split(";").map((d) => {
      const [name = "", ...values] = d.trim().split(/\s+/);
      return [name, values.join(" ")] as const;
    }),
  );

describe("createNonce", () => {
  it("makes a fresh base64 value of 128 bits each time", () => {
    const nonces = new Set(Array.from({ length: 50 }, () => createNonce()));
    expect(nonces.size).toBe(50);
    for (const nonce of nonces) {
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(Buffer.from(nonce, "base64")).toHaveLength(16);
    }
  });
});

describe("contentSecurityPolicy", () => {
  const development = { isProduction: false, isViteDev: false };
  const production = { isProduction: true, isViteDev: false };

  it("allows images from this site (uploaded variants at /media), data: and blob: (the uploader's preview) only", () => {
    const policy = directives(contentSecurityPolicy("abc123==", production));
    expect(policy.get("img-src")).toBe("'self' data: blob:");
  });

  it("allows scripts only with the nonce, and scripts they load through 'strict-dynamic'", () => {
    const policy = directives(contentSecurityPolicy("abc123==", development));
    expect(policy.get("script-src")).toBe("'nonce-abc123==' 'strict-dynamic'");
    expect(policy.get("script-src")).not.toContain("unsafe-inline");
    expect(policy.get("script-src")).not.toContain("unsafe-eval");
  });

  it("forbids framing, plugins and foreign form targets", () => {
    const policy = directives(contentSecurityPolicy("n", development));
    expect(policy.get("frame-ancestors")).toBe("'none'");
    expect(policy.get("object-src")).toBe("'none'");
    expect(policy.get("base-uri")).toBe("'self'");
    expect(policy.get("form-action")).toBe("'self'");
    expect(policy.get("default-src")).toBe("'self'");
  });

  it("upgrades insecure requests only in production", () => {
    expect(directives(contentSecurityPolicy("n", production)).has("upgrade-insecure-requests")).toBe(true);
    expect(directives(contentSecurityPolicy("n", development)).has("upgrade-insecure-requests")).toBe(false);
    expect(
      directives(contentSecurityPolicy("n", { isProduction: false, isViteDev: true })).has("upgrade-insecure-requests"),
    ).toBe(false);
  });

  it("lets the Vite dev server's websocket connect only in development", () => {
    expect(directives(contentSecurityPolicy("n", { isProduction: false, isViteDev: true })).get("connect-src")).toBe(
      "'self' ws: wss:",
    );
    expect(directives(contentSecurityPolicy("n", production)).get("connect-src")).toBe("'self'");
  });

  it("has no empty or repeated directives", () => {
    const policy = contentSecurityPolicy("n", production);
    const names = policy.split("; ").map((d) => d.split(" ")[0]);
    expect(new Set(names).size).toBe(names.length);
    expect(names.every((n) => n && /^[a-z-]+$/.test(n))).toBe(true);
  });
});

describe("securityHeaders middleware", () => {
  function run(options: { isProduction: boolean; isViteDev: boolean }) {
    const headers = new Map<string, string>();
    const res = {
      locals: {} as Record<string, unknown>,
      setHeader(name: string, value: string) {
        headers.set(name.toLowerCase(), value);
        return this;
      },
    };
    const next = vi.fn<() => void>();
    securityHeaders(options)({} as Request, res as unknown as Response, next);
    expect(next).toHaveBeenCalledOnce();
    return { headers, nonce: res.locals.nonce as string };
  }

  it("puts a per-request nonce into res.locals and the CSP", () => {
    const first = run({ isProduction: false, isViteDev: false });
    const second = run({ isProduction: false, isViteDev: false });
    expect(first.nonce).toBeTruthy();
    expect(first.nonce).not.toBe(second.nonce);
    expect(first.headers.get("content-security-policy")).toContain(`'nonce-${first.nonce}'`);
    expect(second.headers.get("content-security-policy")).toContain(`'nonce-${second.nonce}'`);
  });

  it("sets the fixed hardening headers", () => {
    const { headers } = run({ isProduction: false, isViteDev: false });
    expect(headers.get("x-content-type-options")).toBe("nosniff");
    expect(headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(headers.get("x-frame-options")).toBe("DENY");
    expect(headers.get("cross-origin-opener-policy")).toBe("same-origin");
    expect(headers.get("permissions-policy")).toContain("microphone=()");
  });

  it("sends HSTS and upgrade-insecure-requests in production only", () => {
    const prod = run({ isProduction: true, isViteDev: false }).headers;
    expect(prod.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    expect(prod.get("content-security-policy")).toContain("upgrade-insecure-requests");

    const dev = run({ isProduction: false, isViteDev: true }).headers;
    expect(dev.has("strict-transport-security")).toBe(false);
    expect(dev.get("content-security-policy")).not.toContain("upgrade-insecure-requests");
  });
});

describe("originCheck", () => {
  const check = originCheck("https://member.example.com");

  function run(method: string, headers: Record<string, string> = {}, host = "127.0.0.1:3000") {
    const lower = Object.fromEntries(Object.entries({ host, ...headers }).map(([k, v]) => [k.toLowerCase(), v]));
    const req = { method, protocol: "http", get: (name: string) => lower[name.toLowerCase()] };
    const res = {
      statusCode: 200,
      body: undefined as unknown,
      status(code: number) {
        this.statusCode = code;
        return this;
      },
      json(body: unknown) {
        this.body = body;
        return this;
      },
    };
    const next = vi.fn<() => void>();
    check(req as unknown as Request, res as unknown as Response, next);
    return { passed: next.mock.calls.length === 1, status: res.statusCode, body: res.body };
  }

  it.each(["GET", "HEAD", "OPTIONS"])("lets %s through whatever its origin", (method) => {
    expect(run(method, { origin: "https://evil.example", "sec-fetch-site": "cross-site" }).passed).toBe(true);
  });

  it("lets state-changing requests from the public origin or the request's own host through", () => {
    expect(run("POST", { origin: "https://member.example.com" }).passed).toBe(true);
    expect(run("POST", { origin: "http://127.0.0.1:3000", "sec-fetch-site": "same-origin" }).passed).toBe(true);
  });

  it("lets requests without Origin through (server-to-server clients)", () => {
    expect(run("POST").passed).toBe(true);
    expect(run("DELETE").passed).toBe(true);
  });

  it.each([
    ["a foreign origin", { origin: "https://evil.example" }],
    ["a look-alike origin", { origin: "https://member.example.com.evil.example" }],
    ["the public host over http", { origin: "http://member.example.com" }],
    ["an opaque origin", { origin: "null" }],
    ["a cross-site fetch without Origin", { "sec-fetch-site": "cross-site" }],
  ])("refuses %s with 403", (_label, headers) => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      const result = run(method, headers);
      expect(result.passed).toBe(false);
      expect(result.status).toBe(403);
      expect(result.body).toMatchObject({ error: { code: "forbidden_origin" } });
    }
  });
});

describe("apiSecurityHeaders middleware (ADR 060)", () => {
  function run(isProduction: boolean) {
    const headers = new Map<string, string>();
    const res = {
      locals: {} as Record<string, unknown>,
      setHeader(name: string, value: string) {
        headers.set(name.toLowerCase(), value);
        return this;
      },
    };
    const next = vi.fn<() => void>();
    apiSecurityHeaders({ isProduction })({} as Request, res as unknown as Response, next);
    expect(next).toHaveBeenCalledOnce();
    return { headers, locals: res.locals };
  }

  it("sends a CSP that allows no script, load, frame or form target, and makes no nonce", () => {
    const { headers, locals } = run(false);
    const csp = directives(headers.get("content-security-policy") ?? "");
    expect(csp.get("default-src")).toBe("'none'");
    expect(csp.get("frame-ancestors")).toBe("'none'");
    expect(csp.get("form-action")).toBe("'none'");
    expect(csp.has("script-src")).toBe(false);
    expect(locals.nonce).toBeUndefined();
  });

  it("sets the same hardening headers as a page, HSTS in production only", () => {
    const dev = run(false).headers;
    const page = new Map<string, string>();
    securityHeaders({ isProduction: false, isViteDev: false })(
      {} as Request,
      { locals: {}, setHeader: (n: string, v: string) => page.set(n.toLowerCase(), v) } as unknown as Response,
      () => {},
    );
    for (const name of [
      "x-content-type-options",
      "referrer-policy",
      "x-frame-options",
      "cross-origin-opener-policy",
      "permissions-policy",
    ]) {
      expect(dev.get(name), name).toBe(page.get(name));
    }
    expect(dev.has("strict-transport-security")).toBe(false);
    expect(run(true).headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
  });
});
