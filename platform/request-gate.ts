/**
 * Requests first (issue 16: "sending never slows member pages"): the HTTP server counts the requests it is
 * serving, and background work that shares the event loop — the delivery of messages to members — asks
 * `whenIdle()` before each step. With requests in flight it waits for them (at most `maxWaitMs`, so a busy
 * instance still delivers), then goes on; an idle instance pays nothing.
 */
export type RequestGate = {
  started(): void;
  finished(): void;
  readonly inFlight: number;
  whenIdle(maxWaitMs?: number): Promise<void>;
};

export function createRequestGate(): RequestGate {
  let inFlight = 0;
  let waiters: Array<() => void> = [];
  const release = () => {
    const ready = waiters;
    waiters = [];
    for (const resolve of ready) resolve();
  };
  return {
    started() {
      inFlight++;
    },
    finished() {
      inFlight = Math.max(0, inFlight - 1);
      if (inFlight === 0) release();
    },
    get inFlight() {
      return inFlight;
    },
    whenIdle(maxWaitMs = 25) {
      if (inFlight === 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          waiters = waiters.filter((w) => w !== done);
          resolve();
        }, maxWaitMs);
        const done = () => {
          clearTimeout(timer);
          resolve();
        };
        waiters.push(done);
      });
    },
  };
}
