// Measures a full generation (`npm run generate`: load, validate, bundle, model, emit and write
// every file) as the median wall time of fresh processes, against a baseline measured in the same
// run: a process that only loads every contract with swagger-parser (validate + bundle), the
// floor any generation pays. It generates into a scratch copy of the project, so it neither
// touches generated/ nor depends on it being up to date.
// Usage: npm run bench:generate [-- --runs 7]
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const runsFlag = process.argv.indexOf('--runs');
const runs = runsFlag > 0 ? Number(process.argv[runsFlag + 1]) : 5;

const repoRoot = mkdtempSync(join(tmpdir(), 'bench-generate-'));
for (const entry of ['contracts', 'templates', 'generator', 'generated', 'generated-leftovers.ts', 'output-path.ts', 'docs', 'package.json', 'tsconfig.json']) {
  cpSync(join(projectRoot, entry), join(repoRoot, entry), { recursive: true });
}
symlinkSync(join(projectRoot, 'node_modules'), join(repoRoot, 'node_modules'));

const baselineScript = `
  import SwaggerParser from '@apidevtools/swagger-parser';
  import { readdirSync } from 'node:fs';
  for (const f of readdirSync('contracts').filter((name) => name.endsWith('.openapi.yaml'))) {
    await SwaggerParser.validate('contracts/' + f);
    await SwaggerParser.bundle('contracts/' + f);
  }`;

function timeRun(args) {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { cwd: repoRoot, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`${args.join(' ')} failed:\n${result.stderr}`);
  return ms;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const generation = [];
const baseline = [];
try {
  for (let i = 0; i < runs; i += 1) {
    generation.push(timeRun(['--import', 'tsx', 'generator/cli.ts']));
    baseline.push(timeRun(['--input-type=module', '-e', baselineScript]));
  }
} finally {
  rmSync(repoRoot, { recursive: true, force: true });
}
const result = {
  runs,
  generation_ms: Math.round(median(generation)),
  baseline_load_ms: Math.round(median(baseline)),
  ratio: Number((median(generation) / median(baseline)).toFixed(2)),
};
console.table([result]);
console.log(JSON.stringify(result));
