import { FirebaseScrypt } from "firebase-scrypt";
import { describe, expect, it } from "vitest";
import { encodeFirebaseHash } from "./firebase-hash-format";
import { firebaseScryptHash, verifyFirebaseScrypt, verifyStoredFirebaseHash } from "./firebase-scrypt.server";

/**
 * The example project of Firebase's own scrypt repository (github.com/firebase/scrypt, README): the hash below is
 * what both Firebase and the npm package `firebase-scrypt` compute for "user1password" with it.
 */
const FIREBASE_EXAMPLE = {
  config: {
    signerKey: "jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==",
    saltSeparator: "Bw==",
    rounds: 8,
    memCost: 14,
  },
  salt: "42xEC+ixf3L2lw==",
  password: "user1password",
  hash: "lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==",
};

/** Made once with `firebase-scrypt` 2.2.0 (same project parameters, a zh-TW password). */
const FIXED_VECTOR = {
  salt: "c2FsdC1mb3ItbGluLXhpYW9tZWk=",
  password: "舊密碼-Walnut-2019",
  hash: "gDPdkCl8tKmiDN4XqcRXb0sJFBJmxEINuqI5LHOjNs4RW4iYVNR9pFHObZKwIrmGTm0xkbS/o5iJAVJFauNlqw==",
};

/** Cheaper parameters for the tests that hash several times (the loaded test machine). */
const CHEAP = { ...FIREBASE_EXAMPLE.config, memCost: 10 };

describe("Firebase modified scrypt", () => {
  it("computes Firebase's published example and the checked-in vector", async () => {
    const { config, salt, password, hash } = FIREBASE_EXAMPLE;
    expect(await firebaseScryptHash(config, salt, password)).toBe(hash);
    expect(await verifyFirebaseScrypt(config, { salt, hash }, password)).toBe(true);
    expect(await verifyFirebaseScrypt(config, FIXED_VECTOR, FIXED_VECTOR.password)).toBe(true);
    expect(await verifyFirebaseScrypt(config, FIXED_VECTOR, "舊密碼-Walnut-2018")).toBe(false);
  });

  it("verifies what the firebase-scrypt package hashes, and only with the right password and signer key", async () => {
    const salt = Buffer.from("per-user-salt-16").toString("base64");
    const password = "Tile-and-Walnut-2026!";
    const hash = await new FirebaseScrypt(CHEAP).hash(password, salt);
    expect(await verifyFirebaseScrypt(CHEAP, { salt, hash }, password)).toBe(true);
    expect(await verifyFirebaseScrypt(CHEAP, { salt, hash }, "Tile-and-Walnut-2025!")).toBe(false);
    const otherKey = Buffer.alloc(64, 7).toString("base64");
    expect(await verifyFirebaseScrypt({ ...CHEAP, signerKey: otherKey }, { salt, hash }, password)).toBe(false);
    expect(await verifyFirebaseScrypt({ ...CHEAP, saltSeparator: "CA==" }, { salt, hash }, password)).toBe(false);
    expect(await verifyFirebaseScrypt({ ...CHEAP, rounds: 7 }, { salt, hash }, password)).toBe(false);
  });

  it("reads the stored format and accepts URL-safe base64 (Admin SDK exports)", async () => {
    const salt = "+/+/c2FsdA==";
    const hash = await new FirebaseScrypt(CHEAP).hash("pässword-1", salt);
    const stored = encodeFirebaseHash(CHEAP, { kind: "firebase-scrypt", salt, hash });
    expect(await verifyStoredFirebaseHash(stored, "pässword-1")).toBe(true);
    expect(await verifyStoredFirebaseHash(stored, "password-1")).toBe(false);
    const urlSafe = encodeFirebaseHash(CHEAP, {
      kind: "firebase-scrypt",
      salt: salt.replace(/\+/g, "-").replace(/\//g, "_"),
      hash: hash.replace(/\+/g, "-").replace(/\//g, "_"),
    });
    expect(await verifyStoredFirebaseHash(urlSafe, "pässword-1")).toBe(true);
  });

  it("answers false, never throws, for damaged values and absurd parameters", async () => {
    expect(await verifyStoredFirebaseHash("$argon2id$v=19$m=19456,t=2,p=1$abc$def", "x")).toBe(false);
    expect(await verifyStoredFirebaseHash("$firebase-scrypt$r=8,m=14$Bw==$key$salt", "x")).toBe(false);
    const absurd = { ...CHEAP, memCost: 99 };
    expect(await verifyFirebaseScrypt(absurd, { salt: "c2FsdA==", hash: "aGFzaA==" }, "x")).toBe(false);
    expect(await verifyFirebaseScrypt({ ...CHEAP, rounds: 0 }, { salt: "c2FsdA==", hash: "aGFzaA==" }, "x")).toBe(
      false,
    );
    expect(await verifyFirebaseScrypt(CHEAP, { salt: "c2FsdA==", hash: "" }, "x")).toBe(false);
    expect(await verifyFirebaseScrypt(CHEAP, { salt: "c2FsdA==", hash: "aGFzaA==" }, "x")).toBe(false);
  });
});
