import type { APIRequestContext, Browser, BrowserContext, Page } from "@playwright/test";
import { expect } from "@playwright/test";
import { PHONE } from "./screenshots";

let phoneCounter = Math.floor(Math.random() * 1_000_000);

/** A fresh Taiwan mobile number (E.164 and as people type it) for each test. */
export function newPhone(): { e164: string; local: string } {
  phoneCounter += 1;
  const digits = `9${String(10_000_000 + ((phoneCounter * 7919) % 89_999_999)).slice(0, 8)}`;
  return { e164: `+886${digits}`, local: `0${digits.slice(0, 3)}-${digits.slice(3, 6)}-${digits.slice(6)}` };
}

export const STRONG_PASSWORD = "Walnut-Floor-2026!";

/** Creates a member straight in the database (through the APP_ENV=test hooks). */
export async function createMember(
  request: APIRequestContext,
  input: {
    phoneNumber: string;
    password?: string;
    name?: string;
    email?: string;
    pendingEmail?: string;
    disabled?: boolean;
    /** Address city (臺北市…) and marketing opt-ins, for message audiences. */
    city?: string;
    marketing?: { sms?: boolean; email?: boolean; line?: boolean };
    locale?: "zh-TW" | "en";
  },
): Promise<{ userId: string; memberId: string; memberNumber: string }> {
  const res = await request.post("/__test/members", { data: { password: STRONG_PASSWORD, ...input } });
  expect(res.ok(), await res.text()).toBe(true);
  return res.json();
}

/** Logs the browser context in as that user by setting the session cookie. */
export async function loginByCookie(
  request: APIRequestContext,
  context: BrowserContext,
  baseURL: string,
  userId: string,
) {
  const res = await request.post("/__test/sessions", { data: { userId } });
  expect(res.ok()).toBe(true);
  const { setCookie } = (await res.json()) as { setCookie: string[] };
  const url = new URL(baseURL);
  await context.addCookies(
    setCookie.map((header) => {
      const [pair] = header.split(";");
      const index = (pair ?? "").indexOf("=");
      return {
        name: pair!.slice(0, index),
        value: pair!.slice(index + 1),
        domain: url.hostname,
        path: "/",
        httpOnly: true,
        sameSite: "Lax" as const,
      };
    }),
  );
}

/** Reads the newest code sent by text message to a number, from the development outbox. */
export async function latestSmsCode(page: Page, phoneE164: string, notBefore?: string): Promise<string> {
  const reader = await page.context().newPage();
  try {
    let code: string | undefined;
    await expect
      .poll(
        async () => {
          await reader.goto(`/dev/outbox?channel=sms&to=${encodeURIComponent(phoneE164)}`);
          const bodies = await reader.getByTestId("outbox-body").allInnerTexts();
          // The newest text that carries a code: a welcome or another notice may have arrived after it.
          code = bodies.map((body) => /\b(\d{6})\b/.exec(body)?.[1]).find(Boolean);
          return code && code !== notBefore ? code : null;
        },
        { timeout: 15_000, intervals: [250, 500, 1000] },
      )
      .not.toBeNull();
    return code as string;
  } finally {
    await reader.close();
  }
}

/**
 * A member on a phone: a browser context of its own (390×844, touch, zh-TW, Asia/Taipei) signed in as `userId`,
 * and a page in it. Close `context` at the end of the test.
 */
export async function memberOnPhone(
  browser: Browser,
  request: APIRequestContext,
  baseURL: string,
  userId: string,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL,
    locale: "zh-TW",
    timezoneId: "Asia/Taipei",
    viewport: PHONE,
    hasTouch: true,
    isMobile: true,
  });
  await loginByCookie(request, context, baseURL, userId);
  return { context, page: await context.newPage() };
}
