// The bench's logged-in member, made through the app's test hooks (APP_ENV=test and TEST_HOOKS_SECRET): used by
// bench/run.js, bench/ab.js and bench/render-profile.js, so all three measure the same member center.

/** 200 ledger entries and 10 coupons, booked through the loyalty engine. */
export const MEMBER_HISTORY = { entries: 200, coupons: 10 };

/** A POST to one of the server's test hooks (`/__test/...`), answered with its JSON. */
export function testHooks(url, hooksSecret) {
  return async (hookPath, body) => {
    const res = await fetch(`${url}/__test${hookPath}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-test-hooks-secret": hooksSecret },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(120_000),
    });
    if (!res.ok) throw new Error(`POST /__test${hookPath} answered ${res.status}: ${await res.text()}`);
    return res.json();
  };
}

/** The Cookie header of a test hook's `setCookie` list. */
export const cookieHeader = (setCookie) => setCookie.map((c) => c.split(";")[0]).join("; ");

/** Creates the bench's member with its history and a session: the Cookie header that logs it in. */
export async function benchMemberCookie(post) {
  const { userId } = await post("/members", { phoneNumber: "+886955123456", name: "林雅婷" });
  await post(`/members/${userId}/history`, { realistic: MEMBER_HISTORY });
  const { setCookie } = await post("/sessions", { userId });
  return cookieHeader(setCookie);
}
