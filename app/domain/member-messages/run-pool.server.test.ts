import { describe, expect, it } from "vitest";
import { runPool } from "./delivery.server";

describe("runPool", () => {
  it("runs every task once when pace yields between the check and the take", async () => {
    const ran: number[] = [];
    const tasks = Array.from({ length: 5 }, (_, i) => async () => {
      ran.push(i);
    });
    // Every worker waits for pace: with 4 workers and 5 tasks, several see "one left" at once.
    await runPool(tasks, 4, () => new Promise((resolve) => setTimeout(resolve, 1)));
    expect(ran.sort()).toEqual([0, 1, 2, 3, 4]);
  });

  it("keeps to the concurrency", async () => {
    let running = 0;
    let most = 0;
    const tasks = Array.from({ length: 12 }, () => async () => {
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 2));
      running--;
    });
    await runPool(tasks, 3);
    expect(most).toBe(3);
  });
});
