// The README's test command (`npm test`): type-checks the project, brings dist/ up to date, runs
// the vitest suite with its JSON report, then the mock's own suites (test/mock-server) again on a
// sqlite: file with the journal audit, so a change a service forgets to mark fails there, and
// ends with one line `tests: N passed, N failed, N skipped` over both runs, so a run that
// executed nothing, or skipped what it should have run, is visible. Exits non-zero when the type
// check, the build or any test fails.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const run = (command, args, env = {}) => spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1;

const typecheck = run('npx', ['tsc', '--noEmit']);
if (typecheck !== 0) console.error('typecheck: tsc --noEmit failed');
// dist/ as the sources are now, before the suites that pack the kit start (each pack would
// otherwise rebuild a stale dist/ at the same time as the others).
const build = run('node', ['scripts/build.mjs', '--if-stale']);
if (build !== 0) console.error('build: scripts/build.mjs failed');

const passes = [
  { name: 'every suite', args: [] },
  { name: 'the mock on a sqlite: file', args: ['test/mock-server'], env: { EXCHANGE_API_KIT_TEST_STORE: 'sqlite', EXCHANGE_API_KIT_JOURNAL_AUDIT: '1' } },
];

const reportDir = mkdtempSync(join(tmpdir(), 'exchange-api-kit-tests-'));
let vitestFailed = false;
let passed = 0;
let failed = 0;
let skipped = 0;
for (const [index, pass] of passes.entries()) {
  console.log(`\n== tests: ${pass.name}`);
  const reportFile = join(reportDir, `vitest-${index}.json`);
  const status = run('npx', ['vitest', 'run', ...pass.args, '--reporter=default', '--reporter=json', `--outputFile.json=${reportFile}`], pass.env);
  if (status !== 0) vitestFailed = true;
  try {
    const report = JSON.parse(readFileSync(reportFile, 'utf8'));
    passed += report.numPassedTests;
    // Skipped (it.skip, skipIf, describe.skip) and todo tests alike: neither ran.
    skipped += report.numPendingTests + report.numTodoTests;
    // A test file that fails to load has no failed test of its own; count it so it cannot hide.
    const brokenFiles = report.testResults.filter(
      (file) => file.status === 'failed' && !file.assertionResults.some((test) => test.status === 'failed'),
    );
    failed += report.numFailedTests + brokenFiles.length;
  } catch {
    failed += 1;
    console.error(`vitest wrote no report for ${pass.name}`);
  }
}
rmSync(reportDir, { recursive: true, force: true });

console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(typecheck !== 0 || build !== 0 || vitestFailed || failed > 0 || passed === 0 ? 1 : 0);
