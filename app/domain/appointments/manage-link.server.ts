import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { derivedKey } from "~/lib/derived-key.server";

/**
 * A guest's link to their booking (ADR 044, "Later (2026-12-07, a guest's own page)"): a guest has no member center,
 * so the booking's page is reached by a link only they were given — on the page that answered the booking and in
 * the confirmation and reminder texts. The token is the booking's id and 128 bits of an HMAC of it under a key
 * derived from the server secret (its own HKDF label): it cannot be made for another booking or guessed, and it
 * names nothing but the id. It stays valid while the booking exists (the page shows a past or cancelled booking as
 * such, and changes only within the cut-off, as a member's page).
 */
const uuid = z.uuid();

function keyOf(secret: string) {
  return derivedKey(secret, "appointment-manage-link v1");
}

function signatureOf(secret: string, id: string): string {
  return createHmac("sha256", keyOf(secret)).update(id).digest("base64url").slice(0, 22);
}

export function guestManageToken(secret: string, id: string): string {
  return `${id}.${signatureOf(secret, id)}`;
}

/** The booking's id a token names, or null for anything else (a changed character, another secret, junk). */
export function appointmentIdOfToken(secret: string, token: string | undefined): string | null {
  const match = /^([0-9a-f-]{36})\.([A-Za-z0-9_-]{22})$/.exec(token ?? "");
  if (!match || !uuid.safeParse(match[1]).success) return null;
  const id = match[1] as string;
  const expected = Buffer.from(signatureOf(secret, id));
  const given = Buffer.from(match[2] as string);
  return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
}
