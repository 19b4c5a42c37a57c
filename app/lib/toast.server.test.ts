import { createCookieSessionStorage } from "react-router";
import { describe, expect, it } from "vitest";
import { createToastHeaders, readToast, redirectWithToast } from "./toast.server";

const settings = { secret: "a-test-secret-that-is-long-enough-123", secure: false };

/** The toast cookie's `name=value` pair from a response, as a browser would send it back. */
function cookiePair(headers: Headers): string {
  const setCookie = headers.getSetCookie().find((c) => c.startsWith("toast="));
  if (!setCookie) throw new Error(`no toast cookie in ${JSON.stringify(headers.getSetCookie())}`);
  return setCookie.split(";")[0] ?? "";
}

function requestWith(cookie: string | null): Request {
  return new Request("http://localhost/test-crud", cookie ? { headers: { cookie } } : undefined);
}

/** Decodes the (signed) cookie value: base64 JSON, a dot, the signature. */
function splitSigned(pair: string): { payload: string; signature: string } {
  const value = decodeURIComponent(pair.slice("toast=".length));
  const dot = value.lastIndexOf(".");
  return { payload: value.slice(0, dot), signature: value.slice(dot + 1) };
}

describe("redirectWithToast", () => {
  it("redirects and sets a signed, short-lived cookie the page can see (to revalidate the root)", async () => {
    const response = await redirectWithToast(settings, "/test-crud", {
      type: "success",
      message: "notice.sample",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/test-crud");
    const setCookie = response.headers.getSetCookie().find((c) => c.startsWith("toast="));
    expect(setCookie).toBeDefined();
    expect(setCookie).not.toMatch(/; HttpOnly/i);
    expect(setCookie).toMatch(/; SameSite=Lax/i);
    expect(setCookie).toMatch(/; Path=\//i);
    expect(setCookie).toMatch(/; Max-Age=60/i);
    expect(setCookie).not.toMatch(/; Secure/i);

    const { payload, signature } = splitSigned(cookiePair(response.headers));
    expect(signature.length).toBeGreaterThan(10);
    // The payload is readable (signed, not encrypted) and carries the toast.
    const data = JSON.parse(Buffer.from(payload, "base64").toString("utf8")) as Record<string, unknown>;
    expect(JSON.stringify(data)).toContain("notice.sample");
  });

  it("marks the cookie Secure when asked", async () => {
    const response = await redirectWithToast({ ...settings, secure: true }, "/", {
      type: "error",
      message: "error.network",
    });
    expect(response.headers.getSetCookie().find((c) => c.startsWith("toast="))).toMatch(/; Secure/i);
  });

  it("keeps the caller's headers and status", async () => {
    const response = await redirectWithToast(
      settings,
      "/member-center",
      { type: "success", message: "notice.sample" },
      { status: 303, headers: { "Set-Cookie": "other=1; Path=/", "X-Extra": "yes" } },
    );
    expect(response.status).toBe(303);
    expect(response.headers.get("x-extra")).toBe("yes");
    expect(response.headers.getSetCookie()).toHaveLength(2);
    expect(response.headers.getSetCookie()[0]).toBe("other=1; Path=/");
  });
});

describe("readToast", () => {
  it("returns the toast once and clears the cookie", async () => {
    const headers = await createToastHeaders(settings, {
      type: "success",
      message: "footer.copyright",
      values: { year: 2026 },
    });
    const first = await readToast(settings, requestWith(cookiePair(headers)));
    expect(first.toast).toMatchObject({ type: "success", message: "footer.copyright", values: { year: 2026 } });
    expect(first.toast?.id).toMatch(/^[0-9a-f-]{36}$/);

    // The response tells the browser to drop the cookie ...
    const cleared = first.headers?.getSetCookie().find((c) => c.startsWith("toast="));
    expect(cleared).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/i);
    // ... and what the browser sends next holds no toast.
    const second = await readToast(settings, requestWith(cleared?.split(";")[0] ?? null));
    expect(second).toEqual({ toast: null, headers: null });
  });

  it("gives a fresh id to every toast", async () => {
    const input = { type: "error", message: "error.network" } as const;
    const a = await readToast(settings, requestWith(cookiePair(await createToastHeaders(settings, input))));
    const b = await readToast(settings, requestWith(cookiePair(await createToastHeaders(settings, input))));
    expect(a.toast?.id).toBeDefined();
    expect(a.toast?.id).not.toBe(b.toast?.id);
  });

  it("returns nothing without a cookie", async () => {
    expect(await readToast(settings, requestWith(null))).toEqual({ toast: null, headers: null });
    expect(await readToast(settings, requestWith("locale=en"))).toEqual({ toast: null, headers: null });
  });

  it("ignores a tampered cookie", async () => {
    const pair = cookiePair(await createToastHeaders(settings, { type: "success", message: "notice.sample" }));
    const { payload, signature } = splitSigned(pair);
    const data = JSON.parse(Buffer.from(payload, "base64").toString("utf8")) as Record<string, { type: string }>;
    for (const value of Object.values(data)) value.type = "error";
    const forged = Buffer.from(JSON.stringify(data)).toString("base64");
    expect(forged).not.toBe(payload);

    const tampered = `toast=${encodeURIComponent(`${forged}.${signature}`)}`;
    expect((await readToast(settings, requestWith(tampered))).toast).toBeNull();
    // The untouched cookie still works, so it is the tampering that was refused.
    expect((await readToast(settings, requestWith(pair))).toast?.type).toBe("success");
  });

  it("ignores a cookie signed with another secret", async () => {
    const pair = cookiePair(
      await createToastHeaders(
        { ...settings, secret: "another-secret-that-is-long-enough" },
        { type: "success", message: "notice.sample" },
      ),
    );
    expect((await readToast(settings, requestWith(pair))).toast).toBeNull();
  });

  it("drops a correctly signed toast of the wrong shape, and clears it", async () => {
    const storage = createCookieSessionStorage({
      cookie: { name: "toast", path: "/", secrets: [settings.secret] },
    });
    const session = await storage.getSession();
    session.flash("toast", { type: "confetti", message: 42 });
    const pair = (await storage.commitSession(session)).split(";")[0] ?? "";
    const result = await readToast(settings, requestWith(pair));
    expect(result.toast).toBeNull();
    expect(result.headers?.getSetCookie().find((c) => c.startsWith("toast="))).toMatch(/Max-Age=0|Expires=/i);
  });
});
