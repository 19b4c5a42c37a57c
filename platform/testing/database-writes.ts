import { Socket } from "node:net";
import type { CacheBus } from "@platform/cache/bus";
import type { Database } from "@platform/db/client";
import { sql } from "drizzle-orm";

/**
 * Runs `work` and counts the writes this process made to PostgreSQL's port meanwhile: each write is one batch
 * of statements the app then waits for (ADR 030, ADR 039). The cache bus's own listening connection is left out:
 * its heartbeat probe (every 15 s) is nobody's round trip. `seen` names each write (the local port, its size, the
 * first message's type) for an assertion's message.
 */
export async function writesToDatabase<T>(
  db: Database,
  bus: CacheBus,
  work: () => Promise<T>,
): Promise<{ result: T; writes: number; seen: string[] }> {
  const port = Number(new URL(process.env.TEST_DATABASE_URL ?? "postgres://localhost:5432").port || 5432);
  if (bus.backendPid === null) throw new Error("the cache bus is not listening");
  const [listener] = (await db.execute(
    sql`select client_port as port from pg_stat_activity where pid = ${bus.backendPid}`,
  )) as unknown as { port: number }[];
  const original = Socket.prototype.write;
  const seen: string[] = [];
  Socket.prototype.write = function (this: Socket, ...args: Parameters<Socket["write"]>) {
    if (this.remotePort === port && this.localPort !== listener?.port) {
      const chunk = args[0];
      const bytes = typeof chunk === "string" ? Buffer.from(chunk) : Buffer.from(chunk as Uint8Array);
      seen.push(`${this.localPort}:${bytes.length}B:${String.fromCharCode(bytes[0] ?? 32)}`);
    }
    return original.apply(this, args);
  } as Socket["write"];
  try {
    const result = await work();
    return { result, writes: seen.length, seen };
  } finally {
    Socket.prototype.write = original;
  }
}
