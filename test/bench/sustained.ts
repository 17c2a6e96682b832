// Sustained quotes (issue 24, item 3): a fixed number of v3 quote POSTs (1,000,000; --quick 2,000)
// driven through one mock process, then the quote POST's req/s and server CPU per request on that
// process against a fresh process in the same run (repeats interleave the two), with the mock's
// memory after garbage collection (heap-probe.ts) and its resident set sampled along the drive.
// The virtual clock is not advanced: the drive runs in real time, as a sandbox under a long
// integration suite sees it. Its quotes expire after the quote TTL but are kept 24 h after that,
// so none is swept during the run; what bounds them is the per-client cap (maxQuotesPerClient:
// past it the client's oldest quote is forgotten). Memory should rise until the cap and then stay
// flat, which the second half of the drive (well past the cap at full size) shows as its slope.
import autocannon from 'autocannon';
import { maxQuotesPerClient } from '../../mock-server/domain/exchange/quotes.js';
import { load, type LoadFigures, type LoadRequest } from './lib/load.js';
import { startChild, tsxNode, type ChildServer } from './lib/processes.js';
import { median, ratio, round, type BenchResult } from './lib/report.js';
import { medianSlope, slope } from './lib/rss.js';
import type { SettledMemory } from './lib/settled-memory.js';
import { settledMemoryOf } from './servers/heap-probe.js';
import { throughputCases, type MockCredentials } from './throughput-cases.js';

const connections = 10;
/** Memory samples along the drive (each after a garbage collection, which pauses the mock). */
const samplesAlongDrive = 20;

type ProbedMock = ChildServer<MockCredentials> & { settled: () => Promise<SettledMemory> };

async function startProbedMock(): Promise<ProbedMock> {
  const mock = await startChild<MockCredentials>(['--expose-gc', ...tsxNode], 'test/bench/servers/mock.ts', [], {}, { ipc: true });
  return { ...mock, settled: settledMemoryOf(mock.child) };
}

export async function sustained(options: { quick: boolean }): Promise<BenchResult> {
  const quotes = options.quick ? 2_000 : 1_000_000;
  const durationSeconds = options.quick ? 1 : 5;
  const repeats = options.quick ? 1 : 3;
  const longLived = await startProbedMock();
  const fresh: ProbedMock[] = [];
  try {
    const quote = (await throughputCases(longLived.info)).cases.find((c) => c.name === 'v3 quote POST')!;
    const requestTo = (mock: ProbedMock): LoadRequest => ({ url: `${mock.info.url}${quote.target}`, method: 'POST', headers: quote.headers, body: quote.body! });

    // The drive, in equal slices, the memory sampled after each.
    const samples: { quotes: number; heap: number; rss: number }[] = [];
    const sample = async (driven: number) => samples.push({ quotes: driven, ...(await longLived.settled()) });
    await sample(0);
    const slice = Math.ceil(quotes / samplesAlongDrive);
    let driven = 0;
    let non2xx = 0;
    let errors = 0;
    const driveStarted = Date.now();
    while (driven < quotes) {
      const amount = Math.min(slice, quotes - driven);
      const result = await autocannon({ ...requestTo(longLived), connections, amount });
      driven += amount;
      non2xx += result.non2xx;
      errors += result.errors + result.timeouts;
      await sample(driven);
    }
    const driveSeconds = (Date.now() - driveStarted) / 1000;

    // The long-lived process against a fresh one, each repeat on a new fresh process, the order
    // alternating so drift on a shared machine hits both alike.
    const figures: Record<'fresh' | 'long-lived', LoadFigures[]> = { fresh: [], 'long-lived': [] };
    for (let repeat = 0; repeat < repeats; repeat += 1) {
      const newcomer = await startProbedMock();
      fresh.push(newcomer);
      // A warm-up of the fresh process (JIT, connections), not measured; the long-lived one is warm.
      await load(requestTo(newcomer), connections, 1);
      const order = repeat % 2 === 0 ? (['fresh', 'long-lived'] as const) : (['long-lived', 'fresh'] as const);
      for (const which of order) {
        const mock = which === 'fresh' ? newcomer : longLived;
        figures[which].push(await load(requestTo(mock), connections, durationSeconds, mock.child.pid));
      }
      await newcomer.stop();
    }
    const medianOf = (which: 'fresh' | 'long-lived', pick: (f: LoadFigures) => number) => median(figures[which].map(pick));
    const rps = (which: 'fresh' | 'long-lived') => medianOf(which, (f) => f.requestsPerSecond);
    const cpu = (which: 'fresh' | 'long-lived') => medianOf(which, (f) => f.serverCpuUs);
    const measured = [...figures.fresh, ...figures['long-lived']];

    const secondHalf = samples.filter((s) => s.quotes >= quotes / 2);
    const half = secondHalf[0]!;
    const end = samples.at(-1)!;
    const perThousand = (bytes: (s: (typeof samples)[number]) => number, fit: typeof slope) =>
      fit(
        secondHalf.map((s) => s.quotes / 1000),
        secondHalf.map(bytes),
      );
    return {
      name: 'sustained',
      rows: [
        {
          'quotes driven': driven,
          'drive req/s': round(driven / driveSeconds),
          'fresh req/s': round(rps('fresh')),
          'long-lived req/s': round(rps('long-lived')),
          'req/s vs fresh': ratio(rps('long-lived'), rps('fresh')),
          'fresh CPU µs/req': round(cpu('fresh')),
          'long-lived CPU µs/req': round(cpu('long-lived')),
          'CPU vs fresh': ratio(cpu('long-lived'), cpu('fresh')),
          'heap MB at half': round(half.heap / 1e6, 1),
          'heap MB at end': round(end.heap / 1e6, 1),
          // The median slope: a sample is now and then high by what requests in flight hold.
          'heap B/1k quotes (2nd half)': round(perThousand((s) => s.heap, medianSlope)),
          'RSS MB at half': round(half.rss / 1e6),
          'RSS MB at end': round(end.rss / 1e6),
          'RSS B/1k quotes (2nd half)': round(perThousand((s) => s.rss, slope)),
          'non-2xx': non2xx + measured.reduce((sum, f) => sum + f.non2xx, 0),
          errors: errors + measured.reduce((sum, f) => sum + f.errors, 0),
        },
      ],
      details: { connections, durationSeconds, repeats, maxQuotesPerClient, request: `POST ${quote.target} ${quote.body}`, samples, figures },
    };
  } finally {
    for (const mock of [longLived, ...fresh]) await mock.stop();
  }
}
