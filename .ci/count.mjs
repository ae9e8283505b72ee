// Sums vitest JSON reports into the closing line CI reads: `N passed, N failed`.
// A suite that fails outside any test (an import error, a failing beforeAll) counts as one
// failure, and so does a missing or unreadable report, so a crashed run cannot look green.
// Failing tests are named here, next to the count, because a CI log is often read from its tail.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

const firstLine = (message = '') => message.split('\n', 1)[0].slice(0, 300);

let passed = 0;
let failed = 0;
for (const file of process.argv.slice(2)) {
  try {
    const report = JSON.parse(readFileSync(file, 'utf8'));
    const brokenSuites = report.testResults.filter(
      (suite) =>
        suite.status === 'failed' && !suite.assertionResults.some((test) => test.status === 'failed'),
    );
    passed += report.numPassedTests;
    failed += report.numFailedTests + brokenSuites.length;
    console.log(
      `${file}: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ` +
        `${brokenSuites.length} suites failed outside tests, ${report.numPendingTests} skipped`,
    );
    for (const suite of report.testResults) {
      const where = relative(process.cwd(), suite.name);
      for (const test of suite.assertionResults) {
        if (test.status === 'failed') {
          console.log(`  failed: ${where} > ${test.fullName}\n    ${firstLine(test.failureMessages[0])}`);
        }
      }
      if (brokenSuites.includes(suite))
        console.log(`  suite failed: ${where}\n    ${firstLine(suite.message)}`);
    }
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
