import { createSecretKey, hkdfSync, type KeyObject } from "node:crypto";

/**
 * A key of its own for one purpose, derived from the server secret (`SESSION_SECRET`) by HKDF-SHA256 with the
 * purpose's label (salt `han-living`): one secret to manage, and a key of one purpose (a card's token, a device's
 * sealed secret, a webhook endpoint's sealed secret, a guest's booking link) never opens or signs another's.
 * Derived once per secret and label; a KeyObject, because createHmac and the ciphers wrap a Buffer key in a new
 * key object on every call.
 */
const keys = new Map<string, KeyObject>();

export function derivedKey(secret: string, label: string): KeyObject {
  const name = `${label}\u0000${secret}`;
  let key = keys.get(name);
  if (!key) {
    key = createSecretKey(Buffer.from(hkdfSync("sha256", secret, "han-living", label, 32)));
    keys.set(name, key);
  }
  return key;
}
