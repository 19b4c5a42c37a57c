/**
 * Requests first (issue 16: "sending never slows member pages"): the HTTP server counts the requests it is
 * serving, and background work that shares the event loop — the delivery of messages to members — asks
 * `whenIdle()` before each step. With requests in flight it waits for them (at most `maxWaitMs`, so a busy
 * instance still delivers), then goes on; an idle instance pays nothing. `busyWithin()` tells background work
 * whether pages are being served at all, so it can also leave the machine's other core (and the database) to them.
 */
export type RequestGate = {
  started(): void;
  finished(): void;
  readonly inFlight: number;
  whenIdle(maxWaitMs?: number): Promise<void>;
  /** Whether a request started within the last `windowMs`. */
  busyWithin(windowMs: number): boolean;
};

export function createRequestGate(now: () => number = Date.now): RequestGate {
  let inFlight = 0;
  let lastStarted = Number.NEGATIVE_INFINITY;
  let waiters: Array<() => void> = [];
  const release = () => {
    const ready = waiters;
    waiters = [];
    for (const resolve of ready) resolve();
  };
  return {
    started() {
      inFlight++;
      lastStarted = now();
    },
    finished() {
      inFlight = Math.max(0, inFlight - 1);
      if (inFlight === 0) release();
    },
    get inFlight() {
      return inFlight;
    },
    busyWithin(windowMs) {
      return inFlight > 0 || now() - lastStarted <= windowMs;
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
