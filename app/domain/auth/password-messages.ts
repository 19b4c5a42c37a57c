import type { MessageKey } from "~/lib/i18n";
import type { PasswordProblem } from "./password-check.server";

export function passwordProblemMessage(problem: PasswordProblem): MessageKey {
  return problem === "too_short"
    ? "auth.password.tooShort"
    : problem === "too_long"
      ? "auth.password.tooLong"
      : "auth.password.common";
}
