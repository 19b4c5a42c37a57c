// The POS bench data shared by bench/pos.js, bench/pos-app-cpu.js and bench/scale.js: members and store keys
// written straight into the app's database (the same rows sign-up and `npm run api-key` write), the body and headers
// of one purchase, and the autocannon load that sends them.
import { createHash, randomBytes, randomUUID } from "node:crypto";
import autocannon from "autocannon";
import postgres from "postgres";

export const POS_MEMBERS = 500;
/** Keys rotate among 100 store keys because each key is limited to 600 requests a minute (a real till sends a few). */
export const POS_KEYS = 100;

export async function seedPos(databaseUrl) {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const members = [];
    for (let i = 0; i < POS_MEMBERS; i++) {
      const userId = randomUUID();
      const memberNumber = `HL${String(30_000_000 + i)}`;
      await sql`insert into auth_user (id, name, email) values (${userId}, 'bench', ${`${userId}@phone.invalid`})`;
      await sql`insert into member (user_id, member_number, name_zh, phone_number)
        values (${userId}, ${memberNumber}, '測試會員', ${`+8869${String(10_000_000 + i)}`})`;
      members.push(memberNumber);
    }
    // Keys belong to stores that exist (api_key.store_id references store).
    for (let i = 0; i < 10; i++) {
      const id = `S${String(i).padStart(2, "0")}`;
      const text = sql.json({ "zh-TW": id, en: id });
      await sql`insert into store (id, name, summary, city, district, postal_code, address, phone, email, latitude, longitude, weekly_hours)
        values (${id}, ${text}, ${text}, 'taipei', ${text}, '110', ${text}, '02-2345-0000', ${`${id}@stores.example`}, 25.03, 121.56, ${sql.json([[], [], [], [], [], [], []])})
        on conflict (id) do nothing`;
    }
    const keys = [];
    for (let i = 0; i < POS_KEYS; i++) {
      const secret = `hlpos_${randomBytes(32).toString("base64url")}`;
      const hash = createHash("sha256").update(secret).digest("hex");
      await sql`insert into api_key (store_id, name, prefix, secret_hash)
        values (${`S${String(i % 10).padStart(2, "0")}`}, ${`bench ${i}`}, ${secret.slice(0, 12)}, ${hash})`;
      keys.push(secret);
    }
    return { members, keys };
  } finally {
    await sql.end();
  }
}

/** The n-th purchase of a run: a new receipt and Idempotency-Key, a random member, the keys in turn. */
export function purchaseRequest({ members, keys }, run, n) {
  return {
    body: JSON.stringify({
      memberNumber: members[Math.floor(Math.random() * members.length)],
      receiptNumber: `B${run}-${n}`,
      netAmount: 100 + Math.floor(Math.random() * 20_000),
    }),
    headers: {
      "content-type": "application/json",
      authorization: `Bearer ${keys[n % keys.length]}`,
      "idempotency-key": `b${run}-${n}`,
    },
  };
}

/**
 * POST /api/v1/purchases to `url` for `seconds` s over `connections` connections, each request the next
 * purchaseRequest of the run (`run` names its receipts and Idempotency-Keys). `overallRate`: that many requests a
 * second in all (autocannon's overallRate), to read the latency below saturation. The first five answers other
 * than 201 are pushed to `failures` (the caller's error message); the result is autocannon's.
 */
export function sendPurchases(url, data, run, { connections, seconds, overallRate, failures }) {
  let n = 0;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections,
        duration: seconds,
        ...(overallRate ? { overallRate } : {}),
        requests: [
          {
            method: "POST",
            path: "/api/v1/purchases",
            onResponse(status, body) {
              if (status !== 201 && failures.length < 5) failures.push(`${status} ${body}`);
            },
            setupRequest(request) {
              n++;
              return { ...request, ...purchaseRequest(data, run, n) };
            },
          },
        ],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
    autocannon.track(instance, { renderProgressBar: false, renderResultsTable: false, renderLatencyTable: false });
  });
}
