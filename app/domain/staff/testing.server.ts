import { randomUUID } from "node:crypto";
import type { Database } from "@platform/db/client";
import { authUser, staffAccount, staffSession, staffStore, staffTotp } from "@platform/db/schema";
import type { AuditContext } from "../audit/audit.server";
import type { StaffActor } from "./actor";
import type { StaffRole } from "./permissions";
import { encryptSecret, newToken, tokenHash } from "./secrets.server";
import { newTotpSecret } from "./totp";

/**
 * Test helpers (no test-runner imports): a staff member straight in the database, with a role, stores,
 * an enrolled authenticator and a console session that has passed the second factor. Used by the
 * integration tests and by the APP_ENV=test hook `/__test/staff` (browser tests log in by cookie).
 */
export type TestStaff = {
  userId: string;
  displayName: string;
  role: StaffRole;
  storeIds: string[];
  /** The authenticator's secret (base32): tests compute codes from it. */
  totpSecret: string;
  /** The console cookie's value (`han_console=<token>`). */
  token: string;
  sessionId: string;
  actor: StaffActor;
};

export async function createTestStaff(
  db: Database,
  secret: string,
  input: {
    role: StaffRole;
    storeIds?: string[];
    displayName?: string;
    /** When the session gave its second factor (default now); older than 5 minutes asks again. */
    secondFactorAt?: Date;
    /** The last TOTP step used, so a test can use the current step's code (default none). */
    lastUsedStep?: number | null;
  },
  now = new Date(),
): Promise<TestStaff> {
  const userId = randomUUID();
  const storeIds = input.role === "admin" ? [] : [...(input.storeIds ?? [])].sort();
  const displayName = input.displayName ?? `測試${input.role}`;
  const totpSecret = newTotpSecret();
  const token = newToken();
  const secondFactorAt = input.secondFactorAt ?? now;
  const sessionId = await db.transaction(async (tx) => {
    await tx.insert(authUser).values({
      id: userId,
      name: displayName,
      email: `staff-${userId}@example.com`,
      emailVerified: true,
      role: input.role,
      createdAt: now,
      updatedAt: now,
    });
    await tx.insert(staffAccount).values({ userId, displayName });
    if (storeIds.length > 0) await tx.insert(staffStore).values(storeIds.map((storeId) => ({ userId, storeId })));
    await tx.insert(staffTotp).values({
      userId,
      secretEncrypted: encryptSecret(secret, totpSecret),
      confirmedAt: now,
      lastUsedStep: input.lastUsedStep ?? null,
    });
    const [session] = await tx
      .insert(staffSession)
      .values({
        tokenHash: tokenHash(token),
        userId,
        createdAt: now,
        lastSeenAt: now,
        secondFactorAt,
        currentStoreId: storeIds[0] ?? null,
      })
      .returning({ id: staffSession.id });
    if (!session) throw new Error("staff session insert returned nothing");
    return session.id;
  });
  return {
    userId,
    displayName,
    role: input.role,
    storeIds,
    totpSecret,
    token,
    sessionId,
    actor: {
      userId,
      role: input.role,
      displayName,
      storeIds,
      currentStoreId: storeIds[0] ?? null,
      sessionId,
      secondFactorAt,
    },
  };
}

/** An admin acting in domain calls of tests (no account behind it), and the audit "who" of its actions. */
export function testAdminActor(userId = "test-admin"): { actor: StaffActor; audit: AuditContext } {
  return {
    actor: {
      userId,
      role: "admin",
      displayName: "測試管理員",
      storeIds: [],
      currentStoreId: null,
      sessionId: `${userId}-session`,
      secondFactorAt: new Date(),
    },
    audit: { actorType: "staff", userId, role: "admin", storeId: null, ip: null, userAgent: null, requestId: null },
  };
}
