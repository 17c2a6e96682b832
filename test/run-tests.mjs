// The README's test command (`npm test`): type-checks the project, brings dist/ up to date, runs
// the vitest suite with its JSON report, and ends with one line `tests: N passed, N failed,
// N skipped`, so a run that executed nothing, or skipped what it should have run, is visible.
// Exits non-zero when the type check, the build or any test fails.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const run = (command, args) => spawnSync(command, args, { stdio: 'inherit' }).status ?? 1;

const typecheck = run('npx', ['tsc', '--noEmit']);
if (typecheck !== 0) console.error('typecheck: tsc --noEmit failed');
// dist/ as the sources are now, before the suites that pack the kit start (each pack would
// otherwise rebuild a stale dist/ at the same time as the others).
const build = run('node', ['scripts/build.mjs', '--if-stale']);
if (build !== 0) console.error('build: scripts/build.mjs failed');

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
process.exit(typecheck !== 0 || build !== 0 || vitest !== 0 || failed > 0 || passed === 0 ? 1 : 0);
