import { describe, expect, it } from "vitest";
import { decodeFirebaseHash, encodeFirebaseHash, isFirebaseHash } from "./firebase-hash-format";

const config = { signerKey: "c2lnbmVy+/==", saltSeparator: "Bw==", rounds: 8, memCost: 14 };

describe("stored Firebase hashes", () => {
  it("keeps every parameter and reads them back", () => {
    const stored = encodeFirebaseHash(config, { kind: "firebase-scrypt", salt: "c2FsdA==", hash: "aGFzaA==" });
    expect(isFirebaseHash(stored)).toBe(true);
    expect(decodeFirebaseHash(stored)).toEqual({ ...config, salt: "c2FsdA==", hash: "aGFzaA==" });
  });

  it("refuses an argon2 hash and damaged strings", () => {
    expect(decodeFirebaseHash("$argon2id$v=19$m=19456,t=2,p=1$abc$def")).toBeNull();
    expect(decodeFirebaseHash("$firebase-scrypt$r=8,m=14$Bw==$key$salt")).toBeNull();
    expect(decodeFirebaseHash("$firebase-scrypt$r=x,m=14$Bw==$key$salt$hash")).toBeNull();
    expect(decodeFirebaseHash("$firebase-scrypt$r=8,m=14$Bw==$key$salt$hash$more")).toBeNull();
  });
});
