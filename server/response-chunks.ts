/**
 * What a middleware that holds a response's body (http-cache.ts, whole-page-gzip.ts) reads from the arguments of
 * `res.write(chunk, encoding?, callback?)` and `res.end(chunk?, encoding?, callback?)`.
 */

/** The chunk as bytes, or null when there is none (no argument, or the callback in its place). */
export function chunkToBuffer(chunk: unknown, encoding?: unknown): Buffer | null {
  if (chunk === undefined || chunk === null || typeof chunk === "function") return null;
  if (Buffer.isBuffer(chunk)) return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return Buffer.from(String(chunk), typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8");
}

/** The callback among the arguments, if any. */
export function callbackIn(args: readonly unknown[]): (() => void) | undefined {
  return args.find((arg) => typeof arg === "function") as (() => void) | undefined;
}
