import type { APIRequestContext, Page } from "@playwright/test";
import { expect, expectAccessible, test } from "./fixtures";
import { createMember, newPhone } from "./support/members";

/**
 * A point-of-sale client written from the reference page alone: it reads the endpoints and the
 * headers it must send off /api/v1/docs (served by the production app), then looks a member up by
 * the card QR token, books a purchase, retries it, refunds part of it and uses the member's coupon —
 * all over HTTP against the same server. The member, the store's key, the card token and the coupon
 * come from the APP_ENV=test hooks (what sign-up, `npm run api-key` and the member center provide).
 */

/** "POST /api/v1/purchases/{id}/refunds" as printed in the section of one operation. */
async function endpointOf(page: Page, operationId: string): Promise<{ method: string; path: string }> {
  const text = await page.locator(`section:has(> h3#${operationId}) .endpoint`).innerText();
  const [method, path] = text.trim().split(/\s+/);
  expect(method).toMatch(/^(GET|POST)$/);
  return { method: method!, path: path! };
}

type Answer = { status: number; body: Record<string, unknown>; replayed: boolean };

async function callApi(
  request: APIRequestContext,
  key: string,
  endpoint: { method: string; path: string },
  params: Record<string, string>,
  body?: unknown,
  idempotencyKey?: string,
): Promise<Answer> {
  let url = endpoint.path;
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (url.includes(`{${name}}`)) url = url.replace(`{${name}}`, encodeURIComponent(value));
    else query.set(name, value);
  }
  if (query.size) url += `?${query}`;
  const res = await request.fetch(url, {
    method: endpoint.method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined
        ? {}
        : { "content-type": "application/json", "idempotency-key": idempotencyKey ?? crypto.randomUUID() }),
    },
    data: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.headers()["content-type"]).toMatch(/^application\/json/);
  return { status: res.status(), body: await res.json(), replayed: res.headers()["idempotent-replayed"] === "true" };
}

test("a POS client built from the reference page looks up by card, buys, refunds and uses a coupon", async ({
  page,
  request,
}) => {
  const phone = newPhone();
  const { memberNumber } = await createMember(request, { phoneNumber: phone.e164, name: "林美華" });
  const keyRes = await request.post("/__test/api-keys", { data: { storeId: "xinyi-flagship", name: "e2e till" } });
  expect(keyRes.ok()).toBe(true);
  const { secret } = (await keyRes.json()) as { secret: string };

  // The reference page: readable, accessible, self-contained (no scripts at all).
  const docs = await page.goto("/api/v1/docs");
  expect(docs?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("POS");
  await expect(page.locator("script")).toHaveCount(0);
  await expect(page.getByRole("heading", { name: /驗證 Authentication/ })).toBeVisible();
  await expectAccessible(page);
  await expect(page.locator("#auth ~ pre").first()).toContainText("Authorization: Bearer");
  await expect(page.getByText(/Idempotency-Key/).first()).toBeVisible();

  const lookup = await endpointOf(page, "lookupMember");
  const purchase = await endpointOf(page, "recordPurchase");
  const refund = await endpointOf(page, "refundPurchase");
  const redeem = await endpointOf(page, "redeemCoupon");
  const balance = await endpointOf(page, "memberBalance");
  expect([lookup.method, purchase.method, refund.method, redeem.method]).toEqual(["GET", "POST", "POST", "POST"]);

  // The member shows the card QR (a token valid for 45 s).
  const tokenRes = await request.post("/__test/card-tokens", { data: { memberNumber } });
  const { token } = (await tokenRes.json()) as { token: string };
  const found = await callApi(request, secret, lookup, { cardToken: token });
  expect(found.status).toBe(200);
  expect(found.body).toMatchObject({ memberNumber, maskedName: "林○華", tier: "basic" });
  const startBalance = found.body.balance as number;

  // A purchase of NT$25,000 earns 250 points; a retry with the same key answers the same, once.
  const receipt = { memberNumber, receiptNumber: `E2E-${Date.now()}`, netAmount: 25_000 };
  const idem = crypto.randomUUID();
  const booked = await callApi(request, secret, purchase, {}, receipt, idem);
  expect(booked).toMatchObject({ status: 201, body: { pointsEarned: 250, balance: startBalance + 250 } });
  const retried = await callApi(request, secret, purchase, {}, receipt, idem);
  expect(retried).toEqual({ ...booked, replayed: true });

  // A partial refund reverses points in proportion; more than what is left is refused.
  const purchaseId = booked.body.purchaseId as string;
  const refunded = await callApi(request, secret, refund, { id: purchaseId }, { amount: 5_000 });
  expect(refunded).toMatchObject({
    status: 201,
    body: { pointsReversed: 50, balance: startBalance + 200, refundedAmount: 5_000 },
  });
  const tooMuch = await callApi(request, secret, refund, { id: purchaseId }, { amount: 20_001 });
  expect(tooMuch).toMatchObject({ status: 422, body: { error: { code: "refund_exceeds_purchase" } } });

  // The member redeemed 100 points for a coupon in the member center and shows its code.
  const couponRes = await request.post("/__test/coupons", { data: { memberNumber, pointsCost: 100 } });
  const { code } = (await couponRes.json()) as { code: string };
  const used = await callApi(request, secret, redeem, { code }, {});
  expect(used).toMatchObject({ status: 200, body: { code, status: "used" } });
  const again = await callApi(request, secret, redeem, { code }, {});
  expect(again).toMatchObject({ status: 409, body: { error: { code: "coupon_used" } } });

  const ledger = await callApi(request, secret, balance, { memberNumber });
  expect(ledger.status).toBe(200);
  expect(ledger.body.balance).toBe(startBalance + 200);
  expect((ledger.body.entries as { kind: string }[]).map((e) => e.kind)).toEqual(
    expect.arrayContaining(["earn-purchase", "refund-reversal", "adjust", "redeem"]),
  );

  // Every error code the client met is listed on the page.
  for (const codeSeen of ["refund_exceeds_purchase", "coupon_used"]) {
    await expect(page.locator(`#error-${codeSeen}`)).toBeVisible();
  }
});

test("the reference page reads well on a phone and a desktop", async ({ page }, testInfo) => {
  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    await page.setViewportSize(viewport);
    await page.goto("/api/v1/docs");
    await expectAccessible(page);
    // Nothing wider than the screen except inside the scrollable code and table boxes.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: testInfo.outputPath(`api-docs-${viewport.width}.png`), fullPage: false });
  }
});
