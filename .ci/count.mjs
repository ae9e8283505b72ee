// Sums vitest JSON reports into the closing line CI reads: `N passed, N failed`.
// A suite that fails outside any test (an import error, a failing beforeAll) counts as one
// failure, and so does a missing or unreadable report, so a crashed run cannot look green.
import { readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
for (const file of process.argv.slice(2)) {
  try {
    const report = JSON.parse(readFileSync(file, 'utf8'));
    const brokenSuites = report.testResults.filter(
      (suite) =>
        suite.status === 'failed' && !suite.assertionResults.some((test) => test.status === 'failed'),
    ).length;
    passed += report.numPassedTests;
    failed += report.numFailedTests + brokenSuites;
    console.log(
      `${file}: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ` +
        `${brokenSuites} suites failed outside tests, ${report.numPendingTests} skipped`,
    );
    if (report.numPendingTests > 0) {
      console.log(`${file}: skipped tests are not allowed in this project`);
      failed += report.numPendingTests;
    }
  } catch {
    console.log(`${file}: no report`);
    failed += 1;
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 && passed > 0 ? 0 : 1;
