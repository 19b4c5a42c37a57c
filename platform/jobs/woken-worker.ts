import { logBackgroundFailure } from "@platform/db/availability";
import type { Logger } from "@platform/logger";

/** A per-instance worker's handle: run a pass now, wait for the running one (tests), stop. */
export type WokenWorker = {
  /** Runs a pass now (or right after the one running). */
  kick(): void;
  /** Resolves when no pass is running (tests). */
  idle(): Promise<void>;
  stop(): Promise<void>;
};

export type WokenWorkerOptions = {
  /** The cache bus's subscription (ADR 026): a notification whose payload is `wakeOn` (or `*`) runs a pass. */
  subscribe: (listener: (payload: string) => void) => () => void;
  logger: Pick<Logger, "debug" | "warn" | "error">;
  /** Also a pass this often: retries that fell due, a lost notification. */
  intervalMs?: number;
};

/**
 * Gathering (the webhook outbox, ADR 054 "Later (2026-12-07)"): a notification does not start a pass at once but
 * `ms` later, or as soon as `events` notifications arrived, so a stream of events (one notification per transaction)
 * is taken in a few large passes rather than one small pass per event. A timer's or a `kick()`'s pass is not delayed.
 */
export type Gathering = { ms: number; events: number };

/**
 * A worker woken by a notification written in the transaction that queued the work (the member messages' `msg`,
 * the rich menus' `richmenu`) and by a timer; its pass claims due rows with `skip locked`, so several instances
 * share the rows and none takes one another holds. A kick during a pass runs one more pass after it, never two at
 * once; a pass that throws is logged and the next kick tries again.
 */
export function startWokenWorker(
  work: { pass: () => Promise<unknown>; wakeOn: string; intervalMs: number; failure: string; gather?: Gathering },
  options: WokenWorkerOptions,
): WokenWorker {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  let gathered = 0;
  let gathering: { timer: ReturnType<typeof setTimeout>; done: Promise<void>; fire: () => void } | null = null;
  const pass = async () => {
    do {
      again = false;
      try {
        await work.pass();
      } catch (error) {
        logBackgroundFailure(options.logger, "error", { error }, { err: error }, work.failure);
      }
    } while (again && !stopped);
    running = null;
  };
  const kick = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = pass();
  };
  const gather = work.gather;
  /** A notification: a pass now, or (gathering) when the window closes or enough events arrived. */
  const wake = () => {
    if (!gather) return kick();
    gathered++;
    if (gathering) {
      if (gathered >= gather.events) gathering.fire();
      return;
    }
    let fire: () => void = () => undefined;
    const done = new Promise<void>((resolve) => {
      fire = () => {
        clearTimeout(timer);
        gathering = null;
        gathered = 0;
        kick();
        resolve();
      };
    });
    const timer = setTimeout(() => fire(), gather.ms);
    gathering = { timer, done, fire };
    if (gathered >= gather.events) fire();
  };
  const unsubscribe = options.subscribe((payload) => {
    if (payload === work.wakeOn || payload === "*") wake();
  });
  const timer = setInterval(kick, options.intervalMs ?? work.intervalMs);
  timer.unref?.();
  return {
    kick,
    async idle() {
      while (running || gathering) await (gathering ? gathering.done : running);
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      unsubscribe();
      gathering?.fire();
      while (running) await running;
    },
  };
}
