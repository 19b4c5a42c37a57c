import { describe, expect, it } from "vitest";
import { createRequestGate } from "./request-gate";

describe("the request gate", () => {
  it("lets background work through at once when no request is in flight", async () => {
    const gate = createRequestGate();
    let passed = false;
    await gate.whenIdle(10_000).then(() => {
      passed = true;
    });
    expect(passed).toBe(true);
  });

  it("holds background work while requests are served, and lets it go when the last one finishes", async () => {
    const gate = createRequestGate();
    gate.started();
    gate.started();
    let passed = false;
    const waiting = gate.whenIdle(10_000).then(() => {
      passed = true;
    });
    gate.finished();
    await Promise.resolve();
    expect(passed).toBe(false);
    gate.finished();
    await waiting;
    expect(passed).toBe(true);
    expect(gate.inFlight).toBe(0);
  });

  it("never holds it longer than asked (a busy instance still delivers)", async () => {
    const gate = createRequestGate();
    gate.started();
    // Resolves by its own timer while the request is still in flight.
    await gate.whenIdle(20);
    expect(gate.inFlight).toBe(1);
  });
});
