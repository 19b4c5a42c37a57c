import type { Page } from "@playwright/test";
import { base32Decode, hotp, totpStep } from "../../app/domain/staff/totp";
import { expect, expectAccessible, gotoAndCheck, waitForHydration } from "../fixtures";
import { STRONG_PASSWORD } from "./members";

/** Staff accounts in browser tests: invitations (as an admin makes them), the password and TOTP enrolment. */

/** The TOTP code of a secret (as the page shows it, spaces allowed) at this time step (or a later one). */
export function code(secret: string, offsetSteps = 0): string {
  return hotp(base32Decode(secret.replace(/\s/g, "")), totpStep(new Date()) + offsetSteps);
}

/** An invitation, as `npm run staff:create-admin` (admins) or an admin would make it; its path. */
export async function invite(
  page: Page,
  input: { contact: string; displayName: string; role: string; storeIds?: string[] },
): Promise<string> {
  const res = await page.request.post("/__test/staff-invitations", { data: input });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { path: string }).path;
}

/** Accepts an invitation with a new password and enrols the authenticator; returns its secret. */
export async function acceptAndEnrol(page: Page, invitationPath: string): Promise<string> {
  await gotoAndCheck(page, invitationPath);
  await expect(page.getByRole("heading", { level: 1, name: "加入漢生活後台" })).toBeVisible();
  await page.getByLabel("設定密碼").fill(STRONG_PASSWORD);
  await page.getByRole("button", { name: "接受邀請" }).click();
  await expect(page).toHaveURL(/\/admin\/enrol$/);
  await waitForHydration(page);
  await expect(page.getByRole("img", { name: "驗證器 App 的設定 QR Code" })).toBeVisible();
  await expectAccessible(page);
  const secret = (await page.getByTestId("totp-secret").textContent()) ?? "";
  await page.getByLabel("驗證碼").fill(code(secret));
  await page.getByRole("button", { name: "完成設定" }).click();
  await expect(page.getByTestId("recovery-codes").getByRole("listitem")).toHaveCount(10);
  await expectAccessible(page);
  await page.getByRole("link", { name: "我已保存，進入後台" }).click();
  await expect(page).toHaveURL(/\/admin$/);
  return secret;
}
