import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startWokenWorker } from "./woken-worker";

/** The woken worker's gathering (ADR 054 "Later (2026-12-07)"): a stream of notifications becomes a few passes. */
describe("startWokenWorker with gathering", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const logger = { debug: () => undefined, warn: () => undefined, error: () => undefined };

  function setUp(gather: { ms: number; events: number }) {
    let listener: (payload: string) => void = () => undefined;
    let passes = 0;
    const worker = startWokenWorker(
      {
        pass: async () => {
          passes++;
        },
        wakeOn: "webhook",
        intervalMs: 60_000,
        failure: "failed",
        gather,
      },
      {
        subscribe: (l) => {
          listener = l;
          return () => undefined;
        },
        logger,
      },
    );
    return { worker, notify: (payload = "webhook") => listener(payload), passes: () => passes };
  }

  it("runs one pass for the notifications of one window, when the window closes", async () => {
    const { worker, notify, passes } = setUp({ ms: 200, events: 500 });
    for (let i = 0; i < 50; i++) notify();
    notify("msg");
    await vi.advanceTimersByTimeAsync(199);
    expect(passes()).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    await worker.idle();
    expect(passes()).toBe(1);
    notify();
    await vi.advanceTimersByTimeAsync(200);
    await worker.idle();
    expect(passes()).toBe(2);
    await worker.stop();
  });

  it("starts the pass at once when enough events arrived, and idle() waits for a gathering window", async () => {
    const { worker, notify, passes } = setUp({ ms: 200, events: 3 });
    notify();
    notify();
    expect(passes()).toBe(0);
    notify();
    await vi.advanceTimersByTimeAsync(0);
    expect(passes()).toBe(1);
    notify();
    const idle = worker.idle();
    await vi.advanceTimersByTimeAsync(200);
    await idle;
    expect(passes()).toBe(2);
    await worker.stop();
  });

  it("does not delay a kick, and stop() ends an open window without a pass", async () => {
    const { worker, notify, passes } = setUp({ ms: 200, events: 500 });
    worker.kick();
    await worker.idle();
    expect(passes()).toBe(1);
    notify();
    await worker.stop();
    await vi.advanceTimersByTimeAsync(1000);
    expect(passes()).toBe(1);
  });
});
