import { onFirstUse } from "@platform/deferred-modules";
import type { ZxcvbnFactory } from "@zxcvbn-ts/core";
import { PASSWORD_MAX, PASSWORD_MIN } from "./password-policy";

/**
 * zxcvbn and its dictionaries, loaded when the first password is checked: the dictionaries are unpacked when
 * their module is imported (~20 ms), which every start paid before (ADR 030, cold start).
 */
const loadFactory = onFirstUse(() =>
  Promise.all([import("@zxcvbn-ts/core"), import("@zxcvbn-ts/language-common")]).then(
    ([{ ZxcvbnFactory }, { adjacencyGraphs, dictionary }]): ZxcvbnFactory =>
      new ZxcvbnFactory({ graphs: adjacencyGraphs, dictionary }),
  ),
);

export type PasswordProblem = "too_short" | "too_long" | "common";

/**
 * Server-side password check: length, then zxcvbn with the common-password dictionaries; a
 * password it guesses within ~10^6 tries (score < 2) counts as common. The phone number and name
 * the member gave are passed as user inputs, so "0912345678" or a name is refused too.
 */
export async function checkPassword(password: string, userInputs: string[] = []): Promise<PasswordProblem | null> {
  if (password.length < PASSWORD_MIN) return "too_short";
  if (password.length > PASSWORD_MAX) return "too_long";
  const result = (await loadFactory()).check(password.slice(0, 100), userInputs.filter(Boolean));
  return result.score < 2 ? "common" : null;
}
