// Sums vitest JSON reports into the closing line CI reads: `N passed, N failed`.
// A missing or unreadable report counts as a failure, so a crashed run cannot look green.
import { readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
for (const file of process.argv.slice(2)) {
  try {
    const report = JSON.parse(readFileSync(file, 'utf8'));
    passed += report.numPassedTests;
    failed += report.numFailedTests + (report.numRuntimeErrorTestSuites ?? 0);
    console.log(
      `${file}: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${report.numTotalTests} total`,
    );
  } catch {
    console.log(`${file}: no report`);
    failed += 1;
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 && passed > 0 ? 0 : 1;
