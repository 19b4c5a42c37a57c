/** Password rules shared by the browser (instant feedback) and the server (the authority). */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

export type Strength = 0 | 1 | 2 | 3 | 4;

/**
 * A light estimate for the strength meter while typing (no dictionary in the browser bundle).
 * The server additionally refuses common passwords with a real dictionary (password-check.server.ts).
 */
export function estimateStrength(password: string): Strength {
  if (password.length < PASSWORD_MIN) return 0;
  const classes = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((r) => r.test(password)).length;
  const unique = new Set(password).size;
  let score = 0;
  if (password.length >= 10) score += 1;
  if (password.length >= 14) score += 1;
  score += Math.max(0, classes - 1);
  if (unique < 5) score = Math.min(score, 1);
  if (/^(.)\1+$/.test(password) || /^(?:0123456789|1234567890|abcdefgh)/i.test(password)) score = 0;
  return Math.max(1, Math.min(4, score)) as Strength;
}
