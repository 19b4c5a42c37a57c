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
 * A worker woken by a notification written in the transaction that queued the work (the member messages' `msg`,
 * the rich menus' `richmenu`) and by a timer; its pass claims due rows with `skip locked`, so several instances
 * share the rows and none takes one another holds. A kick during a pass runs one more pass after it, never two at
 * once; a pass that throws is logged and the next kick tries again.
 */
export function startWokenWorker(
  work: { pass: () => Promise<unknown>; wakeOn: string; intervalMs: number; failure: string },
  options: WokenWorkerOptions,
): WokenWorker {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
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
  const unsubscribe = options.subscribe((payload) => {
    if (payload === work.wakeOn || payload === "*") kick();
  });
  const timer = setInterval(kick, options.intervalMs ?? work.intervalMs);
  timer.unref?.();
  return {
    kick,
    async idle() {
      while (running) await running;
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      unsubscribe();
      while (running) await running;
    },
  };
}
