import { eq } from "drizzle-orm";
import type { Database } from "../../../server/db/client";
import { member } from "../../../server/db/schema";

/**
 * The one place a member's birthday changes after sign-up (edit-info calls it; nothing else
 * writes `member.birthday`). Birthday rewards depend on it, so any bookkeeping about a change
 * (e.g. when it last changed) belongs here. Pass the transaction the profile update runs in.
 * Returns whether the birthday actually changed.
 */
export async function changeMemberBirthday(
  tx: Database,
  input: { memberId: string; from: string | null; to: string | null },
  now = new Date(),
): Promise<boolean> {
  if (input.from === input.to) return false;
  await tx.update(member).set({ birthday: input.to, updatedAt: now }).where(eq(member.id, input.memberId));
  // COORDINATOR: the birthday-rewards branch adds its `birthdayChangedAt` bookkeeping here.
  return true;
}
