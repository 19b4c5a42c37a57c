import type { APIRequestContext, BrowserContext } from "@playwright/test";
import { expect } from "@playwright/test";
import { base32Decode, hotp, totpStep } from "../../app/domain/staff/totp";

/**
 * Console staff straight in the database (the APP_ENV=test hook `/__test/staff`): a role, stores, an
 * enrolled authenticator and a console session that has passed the second factor, put in the browser
 * context as the console cookie. The TOTP secret comes back, so a test can answer a step-up with a code.
 */
export type ConsoleStaff = { userId: string; displayName: string; totpSecret: string };

export async function loginStaffByCookie(
  request: APIRequestContext,
  context: BrowserContext,
  baseURL: string,
  input: { role: "staff" | "manager" | "admin"; storeIds?: string[]; displayName?: string },
): Promise<ConsoleStaff> {
  const res = await request.post("/__test/staff", { data: input });
  expect(res.ok(), await res.text()).toBe(true);
  const { setCookie, ...staff } = (await res.json()) as ConsoleStaff & { setCookie: string[] };
  const url = new URL(baseURL);
  await context.addCookies(
    setCookie.map((header) => {
      const [pair = ""] = header.split(";");
      const index = pair.indexOf("=");
      return {
        name: pair.slice(0, index),
        value: pair.slice(index + 1),
        domain: url.hostname,
        path: "/",
        httpOnly: true,
        sameSite: "Strict" as const,
      };
    }),
  );
  return staff;
}

/** Makes the staff member's second factor older than the step-up window (the next sensitive action asks). */
export async function ageSecondFactor(request: APIRequestContext, userId: string, minutes = 10): Promise<void> {
  const res = await request.post(`/__test/staff/${userId}/second-factor-age`, { data: { minutes } });
  expect(res.ok(), await res.text()).toBe(true);
}

/**
 * The authenticator's code now (offsetSteps: a later step, for a code not used yet; `at`: the time the server's
 * clock is pinned to, pinClock).
 */
export function totpCode(secret: string, offsetSteps = 0, at = new Date()): string {
  return hotp(base32Decode(secret.replace(/\s/g, "")), totpStep(at) + offsetSteps);
}
