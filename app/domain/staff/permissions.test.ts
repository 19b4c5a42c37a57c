import { isRouteErrorResponse, RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import type { StaffActor } from "./actor";
import { consoleContext, requirePermission, requireRecentSecondFactor } from "./guard.server";
import {
  ALL_PERMISSIONS,
  adjustmentNeedsApproval,
  hasPermission,
  type Permission,
  type PermissionSubject,
  type StaffRole,
  storesFor,
} from "./permissions";

/**
 * The expected answers, written out by hand (not derived from the table under test):
 * O = own store allowed, X = other store allowed too. `-` = refused.
 * Columns: staff, manager, admin.
 */
const EXPECTED: Record<Permission, [string, string, string]> = {
  "counter.purchase": ["O", "O", "OX"],
  "counter.refund": ["O", "O", "OX"],
  "counter.coupon": ["O", "O", "OX"],
  "counter.einvoice": ["O", "O", "OX"],
  "member.view": ["O", "O", "OX"],
  "member.reveal": ["-", "O", "OX"],
  "member.consultant": ["O", "O", "OX"],
  "points.adjust": ["-", "O", "OX"],
  "points.approve": ["-", "-", "OX"],
  "points.bulk": ["-", "OX", "OX"],
  "member.import": ["-", "-", "OX"],
  "store.edit": ["-", "O", "OX"],
  "reports.view": ["-", "O", "OX"],
  "reports.clerks": ["O", "O", "OX"],
  "counter.appointments": ["O", "O", "OX"],
  "catalog.edit": ["-", "-", "OX"],
  "programme.edit": ["-", "-", "OX"],
  "member.manage": ["-", "-", "OX"],
  "member.export": ["-", "-", "OX"],
  "staff.manage": ["-", "-", "OX"],
  "apikeys.manage": ["-", "-", "OX"],
  "audit.view": ["-", "-", "OX"],
  "messages.manage": ["-", "-", "OX"],
  "line.richmenu": ["-", "-", "OX"],
  "webhooks.manage": ["-", "-", "OX"],
  "settings.edit": ["-", "-", "OX"],
  "quotes.view": ["O", "O", "OX"],
  "quotes.answer": ["O", "O", "OX"],
  "samples.manage": ["O", "O", "OX"],
};

const ROLES: StaffRole[] = ["staff", "manager", "admin"];
const OWN = "xinyi-flagship";
const OTHER = "banqiao";

function actor(role: StaffRole, storeIds: string[] = role === "admin" ? [] : [OWN]): StaffActor {
  return {
    userId: `user-${role}`,
    role,
    displayName: role,
    storeIds,
    currentStoreId: storeIds[0] ?? null,
    sessionId: "session",
    secondFactorAt: new Date("2026-01-01T00:00:00Z"),
  };
}

function status(run: () => unknown): number | "ok" {
  try {
    run();
    return "ok";
  } catch (error) {
    if (error instanceof Response) return error.status;
    if (isRouteErrorResponse(error)) return error.status;
    const init = (error as { init?: { status?: number } }).init;
    if (init?.status) return init.status;
    throw error;
  }
}

function location(run: () => unknown): string | null {
  try {
    run();
  } catch (error) {
    if (error instanceof Response) return error.headers.get("Location");
  }
  return null;
}

describe("the permission table", () => {
  it("lists every permission in the expectations", () => {
    expect(Object.keys(EXPECTED).sort()).toEqual([...ALL_PERMISSIONS].sort());
  });

  const cases = ALL_PERMISSIONS.flatMap((permission) =>
    ROLES.flatMap((role, column) => {
      const cell = EXPECTED[permission][column] ?? "-";
      return [
        { permission, role, store: "own", storeId: OWN, allowed: cell.includes("O") },
        { permission, role, store: "other", storeId: OTHER, allowed: cell.includes("X") || cell === "OX" },
      ];
    }),
  );

  it.each(cases)("$role · $permission · $store store → $allowed", ({ permission, role, storeId, allowed }) => {
    const subject = actor(role);
    // Global permissions ignore the store: for them own and other give the same answer.
    expect(hasPermission(subject, permission, { storeId })).toBe(allowed);
    expect(status(() => requirePermission(subject, permission, { storeId }))).toBe(allowed ? "ok" : 403);
  });

  it.each(ALL_PERMISSIONS)("a member or anonymous visitor has no %s (login, not 403)", (permission) => {
    expect(hasPermission(null, permission, { storeId: OWN })).toBe(false);
    expect(hasPermission({ role: "member", storeIds: [OWN] } as unknown as PermissionSubject, permission)).toBe(false);
    expect(status(() => requirePermission(null, permission, { storeId: OWN }))).toBe(302);
  });

  it("without a store, a store permission asks whether the role holds it at any store", () => {
    expect(hasPermission(actor("staff"), "counter.purchase")).toBe(true);
    expect(hasPermission(actor("staff", []), "counter.purchase")).toBe(false);
    expect(hasPermission(actor("manager", ["a", "b"]), "reports.view", { storeId: "b" })).toBe(true);
    expect(storesFor(actor("manager", ["a", "b"]), "reports.view")).toEqual(["a", "b"]);
    expect(storesFor(actor("admin"), "reports.view")).toBe("all");
    expect(storesFor(actor("staff"), "reports.view")).toEqual([]);
  });

  it("a manager's adjustment above the limit waits for approval; an admin's does not", () => {
    expect(adjustmentNeedsApproval("manager", 1000, 1000)).toBe(false);
    expect(adjustmentNeedsApproval("manager", 1001, 1000)).toBe(true);
    expect(adjustmentNeedsApproval("manager", -1001, 1000)).toBe(true);
    expect(adjustmentNeedsApproval("admin", 1_000_000, 1000)).toBe(false);
  });
});

describe("requirePermission with the router context", () => {
  function context(state: { actor: StaffActor | null; returnTo: string } | null) {
    const provider = new RouterContextProvider();
    if (state) provider.set(consoleContext, { ...state, session: null });
    return provider;
  }

  it("sends a visitor without a console session to the console login, with the way back", () => {
    const ctx = context({ actor: null, returnTo: "/admin/counter?x=1" });
    expect(location(() => requirePermission(ctx, "counter.purchase"))).toBe(
      "/admin/login?redirectTo=%2Fadmin%2Fcounter%3Fx%3D1",
    );
    expect(location(() => requirePermission(context(null), "counter.purchase"))).toBe("/admin/login");
  });

  it("answers 403 for a staff member without the permission and returns the actor otherwise", () => {
    const clerk = actor("staff");
    const ctx = context({ actor: clerk, returnTo: "/admin" });
    expect(status(() => requirePermission(ctx, "staff.manage"))).toBe(403);
    expect(requirePermission(ctx, "counter.purchase", { storeId: OWN })).toBe(clerk);
  });

  it("asks for the second factor again when the last one is older than five minutes", () => {
    const clerk = { ...actor("manager"), secondFactorAt: new Date("2026-01-01T00:00:00Z") };
    const ctx = context({ actor: clerk, returnTo: "/admin/counter" });
    expect(requireRecentSecondFactor(ctx, new Date("2026-01-01T00:05:00Z"))).toBe(clerk);
    expect(location(() => requireRecentSecondFactor(ctx, new Date("2026-01-01T00:05:01Z")))).toBe(
      "/admin/verify?redirectTo=%2Fadmin%2Fcounter",
    );
  });
});
