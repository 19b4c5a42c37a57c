// Password logins per second on this machine: the password check is what bounds a login.
// Compares argon2id at OWASP parameters (ours, app/domain/auth/passwords.server.ts) with
// better-auth's default hasher (scrypt), measured in the same run, same concurrency.
import os from "node:os";
import { hash, verify } from "@node-rs/argon2";
import { hashPassword as scryptHash, verifyPassword as scryptVerify } from "better-auth/crypto";

const OWASP = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1, outputLen: 32 };
const seconds = Number(process.env.BENCH_LOGIN_SECONDS ?? 4);
const concurrency = Math.max(2, os.availableParallelism());

async function rate(label, verifyOnce) {
  await verifyOnce(); // warm up
  let done = 0;
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        await verifyOnce();
        done += 1;
      }
    }),
  );
  const perSecond = done / ((performance.now() - started) / 1000);
  return { label, perSecond };
}

export async function measureLogins() {
  const password = "Walnut-Floor-2026!";
  const argonHash = await hash(password, OWASP);
  const scryptStored = await scryptHash(password);
  const argon = await rate("argon2id m=19MiB t=2 p=1 (ours)", () => verify(argonHash, password));
  const scrypt = await rate("scrypt (better-auth default)", () => scryptVerify({ hash: scryptStored, password }));
  return { concurrency, argon, scrypt, ratio: argon.perSecond / scrypt.perSecond };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await measureLogins();
  console.log(`password checks per second, ${r.concurrency} at a time, ${seconds} s each:`);
  console.log(
    `  ${r.argon.label.padEnd(34)} ${r.argon.perSecond.toFixed(1).padStart(8)}/s  ${r.argon.perSecond >= 80 ? "PASS" : "FAIL"} (goal ≥ 80/s)`,
  );
  console.log(`  ${r.scrypt.label.padEnd(34)} ${r.scrypt.perSecond.toFixed(1).padStart(8)}/s`);
  console.log(`  ratio ours / default: ${r.ratio.toFixed(2)}`);
}
