// Measures a full generation (`npm run generate -- --check`: load, validate, bundle, model and
// emit every file, compared with generated/) as the median wall time of fresh processes, against
// a baseline measured in the same run: a process that only loads every contract with
// swagger-parser (validate + bundle), the floor any generation pays.
// Usage: npm run bench:generate [-- --runs 7]
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const runsFlag = process.argv.indexOf('--runs');
const runs = runsFlag > 0 ? Number(process.argv[runsFlag + 1]) : 5;

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
for (let i = 0; i < runs; i += 1) {
  generation.push(timeRun(['--import', 'tsx', 'generator/cli.ts', '--check']));
  baseline.push(timeRun(['--input-type=module', '-e', baselineScript]));
}
const result = {
  runs,
  generation_ms: Math.round(median(generation)),
  baseline_load_ms: Math.round(median(baseline)),
  ratio: Number((median(generation) / median(baseline)).toFixed(2)),
};
console.table([result]);
console.log(JSON.stringify(result));
