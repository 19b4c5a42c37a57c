import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
/** Byte streams for the readers' tests: a text or bytes cut into small chunks (to split characters). */
export async function* bytesOf(input: string | Uint8Array, chunkSize = 7): AsyncGenerator<Uint8Array> {
  const bytes = typeof input === "string" ? new TextEncoder().encode(input) : input;
  for (let i = 0; i < bytes.length; i += chunkSize) yield bytes.subarray(i, i + chunkSize);
}

export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/**
 * V8's full garbage collection, callable without starting node with --expose-gc: memory tests compare retained
 * heap (after a collection), not heapUsed with whatever garbage a loaded machine has not collected yet.
 */
export function gcFunction(): () => void {
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
}
