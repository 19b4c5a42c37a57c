// Adds up the test runners' JSON reports in a folder and prints "N passed, N failed" last.
// Vitest JSON: numPassedTests / numFailedTests. Playwright JSON: stats.expected + flaky / unexpected.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const dir = process.argv[2] ?? "reports";
let passed = 0;
let failed = 0;
let files = 0;
for (const name of readdirSync(dir)
  .filter((f) => f.endsWith(".json"))
  .sort()) {
  const report = JSON.parse(readFileSync(path.join(dir, name), "utf8"));
  files += 1;
  if (report.stats && "expected" in report.stats) {
    const p = report.stats.expected + (report.stats.flaky ?? 0);
    const f = report.stats.unexpected + (report.errors?.length ?? 0);
    console.log(`${name}: ${p} passed, ${f} failed (playwright)`);
    passed += p;
    failed += f;
  } else if ("numPassedTests" in report) {
    const f = report.numFailedTests + countFilesFailedWithoutTests(report);
    console.log(`${name}: ${report.numPassedTests} passed, ${f} failed (vitest)`);
    passed += report.numPassedTests;
    failed += f;
  }
}
if (files === 0) failed += 1;
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);

/**
 * Test files that failed without a failed test (an import error, a failing hook): one failure each. (Vitest's
 * numFailedTestSuites counts every describe block on the way to a failed test too, so it is not used.)
 */
function countFilesFailedWithoutTests(report) {
  return (report.testResults ?? []).filter(
    (s) => s.status === "failed" && !(s.assertionResults ?? []).some((a) => a.status === "failed"),
  ).length;
}
