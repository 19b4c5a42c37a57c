import { describe, expect, it } from "vitest";
import { AUDIT_ACTIONS, type AuditAction, type AuditWriter } from "./audit.server";

describe("audit actions", () => {
  it("lists each action once, as area.verb", () => {
    expect(new Set(AUDIT_ACTIONS).size).toBe(AUDIT_ACTIONS.length);
    for (const action of AUDIT_ACTIONS) expect(action).toMatch(/^[a-z_]+\.[a-z_-]+$/);
  });

  it("does not compile with an action that is not in the list (npm run typecheck checks this file)", () => {
    const known: AuditAction = "purchase.recorded";
    // @ts-expect-error: not an audit action
    const unknown: AuditAction = "purchase.teleported";
    // A writer takes only known actions too (never called here: the check is the compiler's).
    const writeWith = (record: AuditWriter) => [
      record("purchase.recorded", ["purchase", "p-1"]),
      // @ts-expect-error: not an audit action
      record("purchase.teleported", ["purchase", "p-1"]),
    ];
    expect([known, unknown, writeWith]).toHaveLength(3);
  });
});
