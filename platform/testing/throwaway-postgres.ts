import { execFileSync } from "node:child_process";
import { chownSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * A PostgreSQL cluster of one test's own, in a temporary directory, that the test may stop and start
 * (the machine's shared server must never be stopped). Debian keeps initdb/pg_ctl off PATH; both
 * refuse to run as root, so they run as the `postgres` user. Trust auth, 127.0.0.1, a free port.
 */
export type ThrowawayPostgres = {
  url: string;
  port: number;
  start(): void;
  stop(): void;
  destroy(): void;
};

function serverBinDir(): string {
  const listed = execFileSync("dpkg", ["-L", "postgresql-15"], { encoding: "utf8" });
  const initdb = listed.split("\n").find((line) => line.endsWith("/bin/initdb"));
  if (!initdb) throw new Error("initdb not found (is the postgresql-15 package installed?)");
  return path.dirname(initdb);
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function createThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const bin = serverBinDir();
  const root = mkdtempSync(path.join(tmpdir(), "throwaway-pg-"));
  const dataDir = path.join(root, "data");
  const asPostgres = (tool: string, args: string[]) =>
    execFileSync("runuser", ["-u", "postgres", "--", path.join(bin, tool), ...args], { stdio: "pipe" });
  const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
  const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
  chownSync(root, uid, gid);
  asPostgres("initdb", ["-D", dataDir, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8", "--locale=C"]);
  const port = await freePort();
  const options = `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const cluster: ThrowawayPostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start() {
      asPostgres("pg_ctl", ["-D", dataDir, "-o", options, "-l", path.join(root, "server.log"), "-w", "start"]);
    },
    stop() {
      // Fast shutdown: open connections are cut, as when the database host fails over or goes down.
      asPostgres("pg_ctl", ["-D", dataDir, "-m", "fast", "-w", "stop"]);
    },
    destroy() {
      try {
        asPostgres("pg_ctl", ["-D", dataDir, "-m", "immediate", "-w", "stop"]);
      } catch {
        // Already stopped.
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
  cluster.start();
  return cluster;
}
