import type { SourcePatch } from "./server-patches.ts";

/**
 * postgres.js writes a pipelined batch to the socket in one piece, in the server build (ADR 060).
 *
 * postgres.js gathers the messages of the statements it is given in one turn and writes them on the next
 * `setImmediate`, except that a gathered chunk of 1 kB or more is written at once: a batch over 1 kB leaves in two
 * or more writes (each a system call, and on the database's side each a read). A POS purchase's last batch (the
 * points, the last purchase, the receipt message, the answer, the audit row, COMMIT) is over 1 kB, so every
 * purchase paid one write more than its round trips; a CPU profile put 15 % of the app's busy time in socket writes.
 * With the threshold at 16 kB (a socket's usual write size; Node's streams' highWaterMark), a batch goes out in one
 * write. Nothing else changes: what is sent, its order, the `setImmediate` turn it goes out on (a smaller chunk
 * waited for it before too), and the back-pressure answer (a chunk at the threshold is still written at once and
 * its `socket.write` result returned, so a bulk load still stops pipelining when the socket is full).
 *
 * postgres is pinned in package.json; if the line is not found as expected (an upgrade changed it), the build fails
 * rather than silently leaving it out.
 */
const TARGET = /[\\/]postgres[\\/]src[\\/]connection\.js$/;

/** The line of `write(x, fn)` that writes a gathered chunk at once. */
export const WRITE_AT_ONCE = "if (fn || chunk.length >= 1024)";

/** The size from which a gathered chunk is written at once. */
export const WRITE_AT_ONCE_BYTES = 16 * 1024;

/** The patch (platform/bundling/server-patches.ts). */
export const postgresWriteBatchesPatch: SourcePatch = {
  name: "write() at 1 kB (postgres/src/connection.js)",
  file: TARGET,
  find: WRITE_AT_ONCE,
  apply: (code) => code.replace(WRITE_AT_ONCE, `if (fn || chunk.length >= ${WRITE_AT_ONCE_BYTES})`),
};
