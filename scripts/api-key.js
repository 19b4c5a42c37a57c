// Point-of-sale API keys until the console exists (docs/api.md):
//   npm run api-key -- create <storeId> <name>   prints the key once
//   npm run api-key -- list
//   npm run api-key -- revoke <keyId>
// The store must exist (the key books purchases for it). Uses DATABASE_URL, or the embedded database
// under DATA_DIR (stop the app first: PGlite has one process). The app must have started once, so its
// migrations created the api_key table.
// Keep the format and hash in step with app/domain/pos/api-keys.server.ts.
import { createHash, randomBytes } from "node:crypto";
import path from "node:path";

async function connect() {
  if (process.env.DATABASE_URL) {
    const { default: postgres } = await import("postgres");
    const sql = postgres(process.env.DATABASE_URL, { max: 1, onnotice: () => {} });
    return { query: (text, params) => sql.unsafe(text, params), close: () => sql.end({ timeout: 5 }) };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const db = new PGlite(path.join(path.resolve(process.env.DATA_DIR ?? "./data"), "pglite"));
  return { query: async (text, params) => (await db.query(text, params)).rows, close: () => db.close() };
}

const [command, ...args] = process.argv.slice(2);
const db = await connect();
try {
  if (command === "create" && args[0] && args[1]) {
    // A key for a mistyped store would book purchases nobody can find (api_key.store_id also has a
    // foreign key to store; this check makes the refusal readable).
    const [known] = await db.query("select id from store where id = $1", [args[0]]);
    if (known) {
      const secret = `hlpos_${randomBytes(32).toString("base64url")}`;
      const hash = createHash("sha256").update(secret).digest("hex");
      const [row] = await db.query(
        "insert into api_key (store_id, name, prefix, secret_hash) values ($1, $2, $3, $4) returning id",
        [args[0], args.slice(1).join(" "), secret.slice(0, 12), hash],
      );
      console.log(`id:     ${row.id}\nstore:  ${args[0]}\nkey:    ${secret}\n(shown once; only a hash is stored)`);
    } else {
      const stores = (await db.query("select id from store order by sort_order, id")).map((r) => r.id);
      console.error(
        `no store with id "${args[0]}"; known stores: ${stores.join(", ") || "none (run npm run db:seed or add stores first)"}`,
      );
      process.exitCode = 2;
    }
  } else if (command === "list") {
    const rows = await db.query(
      "select id, store_id, name, prefix, created_at, last_used_at, revoked_at from api_key order by created_at",
    );
    for (const r of rows) {
      console.log(
        [
          r.id,
          r.store_id,
          r.name,
          `${r.prefix}…`,
          r.last_used_at ?? "never used",
          r.revoked_at ? "REVOKED" : "active",
        ].join("\t"),
      );
    }
  } else if (command === "revoke" && args[0]) {
    const rows = await db.query(
      "update api_key set revoked_at = now() where id = $1 and revoked_at is null returning id",
      [args[0]],
    );
    console.log(rows.length ? `revoked ${args[0]}` : "no such active key");
  } else {
    console.error("usage: npm run api-key -- create <storeId> <name> | list | revoke <keyId>");
    process.exitCode = 2;
  }
} finally {
  await db.close();
}
