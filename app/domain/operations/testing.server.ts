import { expect } from "vitest";

/** What a command prints (its `out`), line by line, for the tests of npm run db:backup / db:restore. */
export function captureOutput() {
  const lines: string[] = [];
  return { lines, out: { log: (l: string) => lines.push(l), error: (l: string) => lines.push(l) } };
}

/** A refusal is one line of text: no stack, no error class name (TypeError, PostgresError…). */
export function expectOneClearLine(lines: string[]): void {
  expect(lines).toHaveLength(1);
  expect(lines[0]).not.toMatch(/\n|^\s+at |\w*Error\b/);
}
