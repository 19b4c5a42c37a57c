import { ZxcvbnFactory } from "@zxcvbn-ts/core";
import { adjacencyGraphs, dictionary } from "@zxcvbn-ts/language-common";
import { PASSWORD_MAX, PASSWORD_MIN } from "./password-policy";

let factory: ZxcvbnFactory | undefined;

export type PasswordProblem = "too_short" | "too_long" | "common";

/**
 * Server-side password check: length, then zxcvbn with the common-password dictionaries; a
 * password it guesses within ~10^6 tries (score < 2) counts as common. The phone number and name
 * the member gave are passed as user inputs, so "0912345678" or a name is refused too.
 */
export function checkPassword(password: string, userInputs: string[] = []): PasswordProblem | null {
  if (password.length < PASSWORD_MIN) return "too_short";
  if (password.length > PASSWORD_MAX) return "too_long";
  factory ??= new ZxcvbnFactory({ graphs: adjacencyGraphs, dictionary });
  const result = factory.check(password.slice(0, 100), userInputs.filter(Boolean));
  return result.score < 2 ? "common" : null;
}
