/**
 * Polls `read` until `done` accepts its value, and returns that value. Background work (the job
 * queue) finishes on its own schedule; tests wait for the outcome instead of sleeping.
 */
export async function waitFor<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 10_000,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T = await read();
  while (!done(last)) {
    if (Date.now() > deadline) {
      throw new Error(`Timed out after ${timeoutMs} ms; last value: ${JSON.stringify(last)?.slice(0, 500)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
    last = await read();
  }
  return last;
}
