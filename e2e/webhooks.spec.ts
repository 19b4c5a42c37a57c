import { createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, expectAccessible, gotoAndCheck, test, waitForHydration } from "./fixtures";
import { createMember, newPhone } from "./support/members";
import { DESKTOP, screenshotSizes } from "./support/screenshots";
import { loginStaffByCookie } from "./support/staff";

/**
 * Outbound webhooks (issue 38 part 4, ADR 054): an admin reaches the webhooks page through the navigation,
 * registers a receiver started by this test, a purchase at the till is delivered to it and verified with the
 * Standard Webhooks algorithm written out here from the specification, and the admin redelivers it (same id).
 */
type Received = { headers: http.IncomingHttpHeaders; body: string };

/** The specification's verification, independent of the product's code. */
function verify(secret: string, r: Received): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const signed = `${r.headers["webhook-id"]}.${r.headers["webhook-timestamp"]}.${r.body}`;
  const expected = createHmac("sha256", key).update(signed).digest("base64");
  const age = Math.abs(Date.now() / 1000 - Number(r.headers["webhook-timestamp"]));
  return age < 300 && String(r.headers["webhook-signature"]).split(" ").includes(`v1,${expected}`);
}

test("an admin registers a webhook, a purchase is delivered and verified, and the admin redelivers it", async ({
  page,
  request,
  context,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const received: Received[] = [];
  const receiver = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const port = (receiver.address() as AddressInfo).port;
  try {
    await loginStaffByCookie(request, context, baseURL ?? "", { role: "admin", displayName: "王總監" });
    await page.setViewportSize(DESKTOP);
    await gotoAndCheck(page, "/admin");
    await page.getByRole("navigation", { name: "後台導覽" }).getByRole("link", { name: "Webhook" }).click();
    await expect(page).toHaveURL(/\/admin\/webhooks$/);
    await waitForHydration(page);
    await expectAccessible(page);

    // Without an event: told beside the events, the address kept.
    await page.getByLabel("接收網址").fill(`http://localhost:${port}/hook`);
    await page.getByTestId("webhook-register").click();
    await expect(page.getByText("請至少選一種事件。")).toBeVisible();
    await expect(page.getByLabel("接收網址")).toHaveValue(`http://localhost:${port}/hook`);
    await screenshotSizes(page, "console-webhooks-errors");

    await page.getByLabel("說明（選填）").fill("ERP 訂單同步");
    await page.getByTestId("webhook-events-purchase.created").check();
    await page.getByTestId("webhook-register").click();
    await expect(page.getByTestId("webhook-secret-shown")).toBeVisible();
    const secret = await page.getByTestId("webhook-secret").inputValue();
    expect(secret).toMatch(/^whsec_/);
    await expect(page.getByTestId("webhook-endpoint-row")).toContainText(`http://localhost:${port}/hook`);
    await screenshotSizes(page, "console-webhooks");

    // A purchase at the till (the POS API).
    const { memberNumber } = await createMember(request, { phoneNumber: newPhone().e164, name: "林小華" });
    const keyRes = await request.post("/__test/api-keys", { data: { storeId: "luodong", name: "webhook till" } });
    const { secret: apiKey } = (await keyRes.json()) as { secret: string };
    const purchase = await request.post("/api/v1/purchases", {
      headers: {
        authorization: `Bearer ${apiKey}`,
        "content-type": "application/json",
        "idempotency-key": crypto.randomUUID(),
      },
      data: JSON.stringify({ memberNumber, receiptNumber: `WH-${Date.now()}`, netAmount: 2400 }),
    });
    expect(purchase.status(), await purchase.text()).toBe(201);

    await expect.poll(() => received.length, { timeout: 30_000 }).toBe(1);
    const first = received[0] as Received;
    expect(verify(secret, first)).toBe(true);
    const body = JSON.parse(first.body);
    expect(body).toMatchObject({ type: "purchase.created", data: { purchase: { netAmount: 2400 } } });
    expect(body.data.member.memberNumber).toBe(memberNumber);
    // No member:pii scope: no name in the payload.
    expect(first.body).not.toContain("林小華");

    await page.getByTestId("webhook-created-link").click();
    await expect(page).toHaveURL(/\/admin\/webhooks\/[0-9a-f-]{36}$/);
    await waitForHydration(page);
    const delivery = page.getByTestId("webhook-delivery").first();
    await expect(delivery.getByTestId("webhook-delivery-status")).toHaveAttribute("data-status", "delivered");
    await expect(delivery.getByTestId("webhook-delivery-id")).toHaveText(String(first.headers["webhook-id"]));
    await expect(delivery.getByTestId("webhook-delivery-answer")).toContainText("HTTP 204");
    await screenshotSizes(page, "console-webhook-endpoint");

    await delivery.getByTestId("webhook-redeliver").click();
    await expect(page.getByText("已排入重新傳送（webhook-id 不變）。")).toBeVisible();
    await expect.poll(() => received.length, { timeout: 30_000 }).toBe(2);
    const again = received[1] as Received;
    expect(again.headers["webhook-id"]).toBe(first.headers["webhook-id"]);
    expect(again.body).toBe(first.body);
    expect(verify(secret, again)).toBe(true);
    await page.reload();
    await expect(page.getByTestId("webhook-delivery").first().getByTestId("webhook-delivery-status")).toHaveAttribute(
      "data-status",
      "delivered",
    );
    await expectAccessible(page);
  } finally {
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  }
});
