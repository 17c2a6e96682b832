// The README's Performance table, made from a throughput result (bench-results/throughput.json):
// one line per request, the fresh mock at each connection count, its req/s, p99 and server CPU
// a request, and its ratios against the baselines measured in the same run.
import type { BenchResult } from './report.js';

type Row = BenchResult['rows'][number];
type Cell = Row[string] | undefined;

/** The mock started afresh for each repeat: the figure the README gives. */
const freshMock = 'mock';
const baselines = [
  { column: 'vs express', header: 'vs express 5' },
  { column: 'vs node:http', header: 'vs bare node:http' },
  { column: 'vs prism', header: 'vs Prism' },
];

const figure = (value: Cell): string => (typeof value === 'number' ? value.toLocaleString('en-US') : '–');
const times = (value: Cell): string => (typeof value === 'number' ? `${value.toFixed(2)}×` : '–');

/** The table; undefined when the run measured no fresh mock on memory alone (a --store run). */
export function throughputTable(result: BenchResult, measuredAt: string): string | undefined {
  const mockRows = result.rows.filter((row) => row.server === freshMock);
  if (mockRows.length === 0) return undefined;
  const requests = [...new Set(mockRows.map((row) => String(row.request)))];
  const connections = [...new Set(mockRows.map((row) => Number(row.connections)))].sort((a, b) => a - b);
  // A baseline the run did not measure (Prism without --with-prism) gets no column.
  const measured = baselines.filter(({ column }) => mockRows.some((row) => typeof row[column] === 'number'));
  const per = `${connections.join(' / ')} connections`;
  const lines = [
    `| request (${per}) | req/s | p99 ms | server CPU µs a request | ${measured.map(({ header }) => header).join(' | ')} |`,
    `|---|---|---|---|${measured.map(() => '---|').join('')}`,
  ];
  for (const request of requests) {
    const at = connections.map((count) => mockRows.find((row) => row.request === request && row.connections === count));
    const cells = (pick: (row: Row) => string) => at.map((row) => (row === undefined ? '–' : pick(row))).join(' / ');
    lines.push(
      `| ${request} | ${cells((row) => figure(row['req/s']))} | ${cells((row) => figure(row['p99 ms']))} | ${cells((row) => figure(row['CPU µs/req']))} | ${measured
        .map(({ column }) => cells((row) => times(row[column])))
        .join(' | ')} |`,
    );
  }
  const command = `npm run bench -- --only throughput${result.details?.prism === undefined ? '' : ' --with-prism'}`;
  const { repeats, durationSeconds } = result.details ?? {};
  const medians = typeof repeats === 'number' && typeof durationSeconds === 'number' ? `; medians of ${repeats} interleaved repeats of ${durationSeconds} s` : '';
  const mock = typeof result.details?.mock === 'string' ? `; the mock: ${result.details.mock}` : '';
  lines.push('', `Measured ${measuredAt.slice(0, 16).replace('T', ' ')} UTC by \`${command}\`${medians}${mock}.`);
  return lines.join('\n');
}

/** `text` with what lies between the two marker lines replaced by `table`; undefined without both markers. */
export function withTable(text: string, table: string, begin: string, end: string): string | undefined {
  const from = text.indexOf(begin);
  const to = text.indexOf(end, from);
  if (from < 0 || to < 0) return undefined;
  return `${text.slice(0, from + begin.length)}\n${table}\n${text.slice(to)}`;
}
