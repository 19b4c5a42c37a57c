import { createHmac } from "node:crypto";
import type { Database } from "@platform/db/client";
import { createChallenge, verifySolution } from "altcha-lib/v1";
import { claimLimits } from "./rate-limits.server";

/**
 * ALTCHA proof-of-work captcha (self-hosted, invisible): the page solves a SHA-256 puzzle in a
 * worker before a code can be sent. Each solved challenge is accepted once.
 */
export const CAPTCHA_MAX_NUMBER = 50_000;
const CAPTCHA_VALID_MS = 10 * 60_000;

function captchaKey(secret: string): string {
  return createHmac("sha256", secret).update("altcha").digest("hex");
}

export function createCaptchaChallenge(secret: string) {
  return createChallenge({
    hmacKey: captchaKey(secret),
    maxNumber: CAPTCHA_MAX_NUMBER,
    expires: new Date(Date.now() + CAPTCHA_VALID_MS),
  });
}

export async function verifyCaptcha(db: Database, payload: unknown, secret: string): Promise<boolean> {
  if (typeof payload !== "string" || payload.length === 0 || payload.length > 2000) return false;
  let signature: string;
  try {
    const parsed = JSON.parse(Buffer.from(payload, "base64").toString("utf8")) as { signature?: unknown };
    if (typeof parsed.signature !== "string") return false;
    signature = parsed.signature;
    if (!(await verifySolution(payload, captchaKey(secret), true))) return false;
  } catch {
    return false;
  }
  const once = await claimLimits(db, [{ key: `captcha:${signature}`, window: "day", max: 1 }]);
  return once.allowed;
}
