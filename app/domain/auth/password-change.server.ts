import { revokeOtherSessions } from "./active-sessions.server";
import { type AuthDeps, setPassword } from "./flows.server";
import { type IdentityResult, proveIdentity } from "./identity.server";
import type { PasswordProblem } from "./password-check.server";

export type ChangePasswordResult =
  | { ok: true; endedSessions: number }
  | Exclude<IdentityResult, { ok: true }>
  | { ok: false; reason: "weak"; problem: PasswordProblem };

/**
 * Security page: the current password proves it is the member; the new one must pass the policy.
 * Every other session ends (a stolen session cookie dies with the old password); this one stays.
 */
export async function changePassword(
  deps: Pick<AuthDeps, "db" | "auth" | "secret">,
  input: {
    userId: string;
    sessionId: string;
    phoneNumber: string;
    currentPassword: string;
    newPassword: string;
    userInputs?: string[];
  },
): Promise<ChangePasswordResult> {
  const proven = await proveIdentity(deps, {
    userId: input.userId,
    phoneNumber: input.phoneNumber,
    proof: { method: "password", password: input.currentPassword },
  });
  if (!proven.ok) return proven;
  const set = await setPassword(deps, input.userId, input.newPassword, input.userInputs ?? []);
  if (!set.ok) return { ok: false, reason: "weak", problem: set.problem };
  const endedSessions = await revokeOtherSessions(deps.db, input.userId, input.sessionId);
  return { ok: true, endedSessions };
}
