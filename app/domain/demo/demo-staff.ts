import type { Database } from "@platform/db/client";
import { authAccount, authUser, staffAccount, staffStore, staffTotp } from "@platform/db/schema";
import { generateId } from "better-auth";
import { eq } from "drizzle-orm";
import { hashPassword } from "../auth/passwords.server";
import type { StaffRole } from "../staff/permissions";
import { encryptSecret } from "../staff/secrets.server";

/**
 * The demo staff of a development database (never production: see server/app.ts), beside the demo
 * member. Log in at /admin/login with the e-mail and password, then the 6-digit code an authenticator
 * app computes from the TOTP secret (add it by hand as a "setup key"; README). These are public.
 */
export const DEMO_STAFF = [
  {
    role: "admin",
    email: "demo-admin@example.com",
    password: "HanLiving-Admin-2026",
    displayName: "示範管理員",
    totpSecret: "HANLIVINGDEMOADMINTOTPSECRETKEYA",
    storeIds: [],
  },
  {
    role: "staff",
    email: "demo-clerk@example.com",
    password: "HanLiving-Clerk-2026",
    displayName: "示範店員",
    totpSecret: "HANLIVINGDEMOCLERKTOTPSECRETKEYC",
    storeIds: ["xinyi-flagship"],
  },
] as const satisfies readonly {
  role: StaffRole;
  email: string;
  password: string;
  displayName: string;
  totpSecret: string;
  storeIds: readonly string[];
}[];

/** Creates the demo admin and clerk unless they exist. Returns how many were created. */
export async function seedDemoStaff(db: Database, secret: string, now = new Date()): Promise<number> {
  let created = 0;
  for (const demo of DEMO_STAFF) {
    const [existing] = await db.select({ id: authUser.id }).from(authUser).where(eq(authUser.email, demo.email));
    if (existing) continue;
    const userId = generateId();
    const password = await hashPassword(demo.password);
    await db.transaction(async (tx) => {
      await tx.insert(authUser).values({
        id: userId,
        name: demo.displayName,
        email: demo.email,
        emailVerified: true,
        role: demo.role,
        createdAt: now,
        updatedAt: now,
      });
      await tx
        .insert(authAccount)
        .values({ id: generateId(), accountId: userId, providerId: "credential", userId, password });
      await tx.insert(staffAccount).values({ userId, displayName: demo.displayName });
      if (demo.storeIds.length > 0) {
        await tx.insert(staffStore).values(demo.storeIds.map((storeId) => ({ userId, storeId })));
      }
      await tx
        .insert(staffTotp)
        .values({ userId, secretEncrypted: encryptSecret(secret, demo.totpSecret), confirmedAt: now });
    });
    created += 1;
  }
  return created;
}
