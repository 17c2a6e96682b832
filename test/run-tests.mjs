// The README's test command (`npm test`): type-checks the project, runs the vitest suite with
// its JSON report, and ends with one line `tests: N passed, N failed, N skipped`, so a run that
// executed nothing, or skipped what it should have run, is visible. Exits non-zero when the type check or any test fails.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const run = (command, args) => spawnSync(command, args, { stdio: 'inherit' }).status ?? 1;

const typecheck = run('npx', ['tsc', '--noEmit']);
if (typecheck !== 0) console.error('typecheck: tsc --noEmit failed');

const reportDir = mkdtempSync(join(tmpdir(), 'exchange-api-kit-tests-'));
const reportFile = join(reportDir, 'vitest.json');
const vitest = run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${reportFile}`]);

let passed = 0;
let failed = 0;
let skipped = 0;
try {
  const report = JSON.parse(readFileSync(reportFile, 'utf8'));
  passed = report.numPassedTests;
  // Skipped (it.skip, skipIf, describe.skip) and todo tests alike: neither ran.
  skipped = report.numPendingTests + report.numTodoTests;
  // A test file that fails to load has no failed test of its own; count it so it cannot hide.
  const brokenFiles = report.testResults.filter(
    (file) => file.status === 'failed' && !file.assertionResults.some((test) => test.status === 'failed'),
  );
  failed = report.numFailedTests + brokenFiles.length;
} catch {
  failed = 1;
  console.error('vitest wrote no report');
}
rmSync(reportDir, { recursive: true, force: true });

console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(typecheck !== 0 || vitest !== 0 || failed > 0 || passed === 0 ? 1 : 0);
