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
    for (const title of playwrightFailures(report)) console.log(`  failed: ${title}`);
    passed += p;
    failed += f;
  } else if ("numPassedTests" in report) {
    const f = report.numFailedTests + countFilesFailedWithoutTests(report);
    console.log(`${name}: ${report.numPassedTests} passed, ${f} failed (vitest)`);
    for (const title of vitestFailures(report)) console.log(`  failed: ${title}`);
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

/** The failed tests of a Vitest report, as "file › test: first line of the message" (so a flake names itself). */
function vitestFailures(report) {
  const out = [];
  for (const file of report.testResults ?? []) {
    const where = path.relative(process.cwd(), file.name ?? "");
    const failedTests = (file.assertionResults ?? []).filter((a) => a.status === "failed");
    for (const a of failedTests) out.push(`${where} › ${a.fullName}: ${firstLine(a.failureMessages?.[0])}`);
    if (file.status === "failed" && failedTests.length === 0) out.push(`${where}: ${firstLine(file.message)}`);
  }
  return out;
}

/** The failed tests of a Playwright report, as "file › title: first line of the error". */
function playwrightFailures(report) {
  const out = [];
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== "unexpected") continue;
        const error = test.results?.at(-1)?.error?.message;
        out.push(`${spec.file} › ${spec.title}: ${firstLine(error)}`);
      }
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of report.suites ?? []) walk(suite);
  for (const error of report.errors ?? []) out.push(firstLine(error.message));
  return out;
}

function firstLine(text) {
  const colour = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");
  return (
    String(text ?? "")
      .replace(colour, "")
      .split("\n")
      .find((l) => l.trim()) ?? ""
  );
}
