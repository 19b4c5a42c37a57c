import { expect, it } from "vitest";

/**
 * The guarantees of the per-instance caches (ADR 026), as HTTP scenarios over two instances `a` and
 * `b` of one install (on PGlite both are the one instance). Each scenario warms `b`'s caches first,
 * changes something through `a`, and expects `b`'s very next request to see it, with no retry. A
 * change through a page (a POST) is answered only after its invalidations reached every listener
 * (the fence of ADR 026), so the next request follows at once; a change the test writes itself, or
 * through the test hooks or the POS API, waits until the instances have been told (`told`), which fails
 * if the notification never comes.
 */
export type CacheTestContext = {
  a: string;
  b: string;
  hooksSecret: string;
  /** A console cookie of an admin (`han_console=…`). */
  adminCookie: string;
  /** Revokes a POS API key through the domain code, as the console does. */
  revokeApiKey(id: string): Promise<void>;
  /** Renames a member (user id) in the database, as the profile page does. */
  renameMember(userId: string, nameZh: string): Promise<void>;
  /** Resolves when every instance has received this invalidation (call before the write). */
  told(payload: string): Promise<void>;
};

const PASSWORD = "Granite-Terrace-2026!";
let phoneSeq = 0;

export async function hook<T>(ctx: CacheTestContext, path: string, body: unknown): Promise<T> {
  const response = await fetch(`${ctx.a}/__test${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-test-hooks-secret": ctx.hooksSecret },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`POST /__test${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

type TestMember = { userId: string; memberId: string; memberNumber: string; name: string };

export async function newMember(ctx: CacheTestContext, name: string): Promise<TestMember> {
  phoneSeq += 1;
  const phoneNumber = `+8869${String(Date.now() % 1_000_000).padStart(6, "0")}${String(phoneSeq % 100).padStart(2, "0")}`;
  const created = await hook<Omit<TestMember, "name">>(ctx, "/members", { phoneNumber, name, password: PASSWORD });
  return { ...created, name };
}

export async function login(ctx: CacheTestContext, userId: string): Promise<string> {
  const { setCookie } = await hook<{ setCookie: string[] }>(ctx, "/sessions", { userId });
  return setCookie.map((c) => c.split(";")[0]).join("; ");
}

/** The member center's HTML for this cookie, or null when it sends the visitor to the login page. */
export async function memberCenter(base: string, cookie: string): Promise<string | null> {
  const response = await fetch(`${base}/member-center`, { headers: { cookie }, redirect: "manual" });
  if (response.status === 302 || response.status === 303) {
    expect(response.headers.get("location")).toMatch(/^\/member-login/);
    return null;
  }
  expect(response.status).toBe(200);
  return response.text();
}

function post(base: string, path: string, fields: Record<string, string>, cookie: string) {
  return fetch(`${base}${path}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { origin: base, cookie },
    redirect: "manual",
  });
}

/** Logged in on both instances, each having served (and cached) the session at least twice. */
async function warm(ctx: CacheTestContext, ...cookies: string[]) {
  for (const cookie of cookies) {
    for (const base of [ctx.a, ctx.b, ctx.b]) expect(await memberCenter(base, cookie)).not.toBeNull();
  }
}

export function defineCacheScenarios(context: () => CacheTestContext) {
  it("log out on A: the next request on B is logged out", async () => {
    const ctx = context();
    const m = await newMember(ctx, "登出測試");
    const cookie = await login(ctx, m.userId);
    await warm(ctx, cookie);
    expect((await post(ctx.a, "/logout", {}, cookie)).status).toBe(302);
    expect(await memberCenter(ctx.b, cookie)).toBeNull();
    expect(await memberCenter(ctx.a, cookie)).toBeNull();
  });

  it("log out everywhere else on A: the other session's next request on B is logged out, this one stays", async () => {
    const ctx = context();
    const m = await newMember(ctx, "全部登出");
    const here = await login(ctx, m.userId);
    const elsewhere = await login(ctx, m.userId);
    await warm(ctx, here, elsewhere);
    expect((await post(ctx.a, "/member-center/security", { intent: "end-others" }, here)).status).toBe(302);
    expect(await memberCenter(ctx.b, elsewhere)).toBeNull();
    expect(await memberCenter(ctx.b, here)).not.toBeNull();
  });

  it("password change on A: the member's other session on B is logged out at once", async () => {
    const ctx = context();
    const m = await newMember(ctx, "改密碼");
    const here = await login(ctx, m.userId);
    const elsewhere = await login(ctx, m.userId);
    await warm(ctx, here, elsewhere);
    const changed = await post(
      ctx.a,
      "/member-center/security",
      {
        intent: "change-password",
        currentPassword: PASSWORD,
        password: "Lantern-Orchard-Basalt-88",
        confirmPassword: "Lantern-Orchard-Basalt-88",
      },
      here,
    );
    expect(changed.status).toBe(302);
    expect(await memberCenter(ctx.b, elsewhere)).toBeNull();
    expect(await memberCenter(ctx.b, here)).not.toBeNull();
  });

  it("member disabled by an admin on A: the next request on B is logged out", async () => {
    const ctx = context();
    const m = await newMember(ctx, "停用快取");
    const cookie = await login(ctx, m.userId);
    await warm(ctx, cookie);
    const disabled = await post(
      ctx.a,
      `/admin/members/${m.memberId}`,
      { intent: "disable", reason: "快取測試", confirmed: "1" },
      ctx.adminCookie,
    );
    expect(disabled.status).toBe(302);
    expect(await memberCenter(ctx.b, cookie)).toBeNull();
  });

  it("a profile edit and a ledger write on A show on B's next page", async () => {
    const ctx = context();
    const m = await newMember(ctx, "原本名字");
    const cookie = await login(ctx, m.userId);
    await warm(ctx, cookie);
    expect(await memberCenter(ctx.b, cookie)).toContain('data-testid="points-balance">0<');
    const renamed = ctx.told(`u:${m.userId}`);
    await ctx.renameMember(m.userId, "新的名字");
    await renamed;
    const booked = ctx.told(`m:${m.memberId}`);
    await hook(ctx, `/members/${m.userId}/adjust`, { amount: 1234 });
    await booked;
    const page = await memberCenter(ctx.b, cookie);
    expect(page).toContain("新的名字");
    expect(page).not.toContain("原本名字");
    expect(page).toContain('data-testid="points-balance">1,234<');
  });

  it("a POS API key revoked on A is refused on B at once", async () => {
    const ctx = context();
    const m = await newMember(ctx, "收銀測試");
    const { id, secret } = await hook<{ id: string; secret: string }>(ctx, "/api-keys", { storeId: "xinyi-flagship" });
    const balance = (base: string) =>
      fetch(`${base}/api/v1/members/${m.memberNumber}/balance`, { headers: { authorization: `Bearer ${secret}` } });
    for (const base of [ctx.a, ctx.b, ctx.b]) expect((await balance(base)).status).toBe(200);
    const revoked = ctx.told("k");
    await ctx.revokeApiKey(id);
    await revoked;
    expect((await balance(ctx.b)).status).toBe(401);
    expect((await balance(ctx.a)).status).toBe(401);
  });

  it("two members alternating on one instance never see each other's data", async () => {
    const ctx = context();
    const one = await newMember(ctx, "甲會員");
    const two = await newMember(ctx, "乙會員");
    await hook(ctx, `/members/${one.userId}/adjust`, { amount: 111 });
    await hook(ctx, `/members/${two.userId}/adjust`, { amount: 222 });
    const cookies = [await login(ctx, one.userId), await login(ctx, two.userId)];
    const members = [one, two];
    for (let round = 0; round < 6; round++) {
      for (const i of [0, 1]) {
        const page = await memberCenter(ctx.b, cookies[i] as string);
        const me = members[i] as TestMember;
        const other = members[1 - i] as TestMember;
        expect(page).toContain(me.name);
        expect(page).toContain(me.memberNumber);
        expect(page).toContain(`data-testid="points-balance">${i === 0 ? 111 : 222}<`);
        expect(page).not.toContain(other.name);
        expect(page).not.toContain(other.memberNumber);
      }
    }
  });
}
