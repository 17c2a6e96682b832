// `npm run bench:readme [FILE]`: writes the throughput benchmark's last result
// (bench-results/throughput.json, or BENCH_RESULTS_DIR's) as the Performance table of the README
// (or FILE), between its two marker lines, so the table is the benchmark's output, not a copy.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './lib/processes.js';
import { resultsDir, type BenchResult } from './lib/report.js';
import { throughputTable, withTable } from './lib/throughput-table.js';

const begin = '<!-- throughput table: written by npm run bench:readme -->';
const end = '<!-- end of the throughput table -->';

const file = process.argv[2] ?? join(repoRoot, 'README.md');
const resultFile = join(resultsDir, 'throughput.json');
let result: BenchResult & { measuredAt: string };
try {
  result = JSON.parse(readFileSync(resultFile, 'utf8')) as BenchResult & { measuredAt: string };
} catch {
  console.error(`no throughput result in ${resultFile}: run npm run bench -- --only throughput first`);
  process.exit(1);
}
const table = throughputTable(result, result.measuredAt);
if (table === undefined) {
  console.error(`${resultFile} has no fresh mock on memory alone: run npm run bench -- --only throughput without --store`);
  process.exit(1);
}
const text = withTable(readFileSync(file, 'utf8'), table, begin, end);
if (text === undefined) {
  console.error(`${file} has no table markers: put the lines\n${begin}\n${end}\nwhere the table goes`);
  process.exit(1);
}
writeFileSync(file, text);
console.log(`wrote the throughput table of ${result.measuredAt} into ${file}`);
