// `npm run bench`: every benchmark of the issue, each printing a table and writing
// bench-results/<name>.json. Figures are medians over repeats; comparisons are ratios against
// baselines measured in the same run on the same machine.
//   --quick        tiny durations and sizes (the CI smoke run: it works, nothing is judged)
//   --only NAME    one benchmark (repeatable): throughput, cold-start, generate, scale, restart, webhooks, slow-senders, journal-flush, replicas, sustained
//   --with-prism   add Prism mocking our v3 and v1 contracts to the throughput baselines
//   --store ENGINE the throughput benchmark's fresh mock on this storage engine (repeatable:
//                  memory, sqlite, postgres; default memory)
import { parseArgs } from 'node:util';
import { benchmarks, runBenchmarks } from './benchmarks.js';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string', multiple: true },
    'with-prism': { type: 'boolean', default: false },
    store: { type: 'string', multiple: true },
  },
  strict: true,
});
const names = values.only ?? Object.keys(benchmarks);
const { files, failed } = await runBenchmarks(names, { quick: values.quick, withPrism: values['with-prism'], ...(values.store ? { stores: values.store } : {}) });
console.log(`\nwrote ${files.map((f) => f.replace(`${process.cwd()}/`, '')).join(', ')}`);
process.exit(failed.length > 0 ? 1 : 0);
