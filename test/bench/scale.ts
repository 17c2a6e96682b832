// Scale: does a list cost grow with the records stored? For 1,000 / 100,000 / 1,000,000 deposits
// and orders (each count in a fresh process, seeded through the domain service), the median
// latency of the list a client reads (v1 listDeposits, v3 listOrders; 20 a page) in page and
// cursor mode, as a ratio to the smallest count measured in the same run, and the memory each
// stored record takes (an order's, created with its requisites and an email of its own,
// includes its order.created webhook event); with orders, also the latency of the client's
// webhook event list (GET /webhooks/events), which holds their events. It also reports the
// longest single create while seeding, and the longest during which the collector did not pause
// (an index growing): what every request waiting on the server would wait for at that count.
// Targets (issues 9 and 17): latency at 1M ≤ 1.5 × latency at 1k; ≤ 600 B per stored deposit,
// ≤ 1.5 KB per stored order with its event.
import { spawnSync } from 'node:child_process';
import { repoRoot, tsxNode } from './lib/processes.js';
import { recordBytesBounds } from './lib/record-bounds.js';
import { ratio, round, type BenchResult } from './lib/report.js';

interface ScaleFigures {
  kind: 'deposits' | 'orders';
  count: number;
  seedMs: number;
  /** The longest single create while seeding, and the longest during which the collector did not pause. */
  longestCreate: { anyMs: number; withoutPauseMs: number };
  rssBytesPerRecord: number;
  heapBytesPerRecord: number;
  rssMb: number;
  listPageMs: number;
  listCursorMs: number;
  /** The client's webhook event list, with orders only. */
  eventsPageMs: number | null;
  eventsCursorMs: number | null;
}

/** Below this count the process's own noise dominates the bytes per record. */
const bytesShownFrom = 100_000;

function measure(kind: ScaleFigures['kind'], count: number, samples: number): ScaleFigures {
  const args = ['--expose-gc', '--max-old-space-size=12288', ...tsxNode, 'test/bench/servers/scale-worker.ts', kind, String(count), String(samples)];
  const result = spawnSync(process.execPath, args, { cwd: repoRoot, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`scale worker (${kind} ${count}) failed:\n${result.stderr.slice(-2000)}`);
  return JSON.parse(result.stdout.trim().split('\n').at(-1)!) as ScaleFigures;
}

export function scale(options: { quick: boolean }): BenchResult {
  const counts = options.quick ? [100, 1_000] : [1_000, 100_000, 1_000_000];
  const rows = [];
  const figures: ScaleFigures[] = [];
  for (const kind of ['deposits', 'orders'] as const) {
    const measured = counts.map((count) => measure(kind, count, options.quick ? 5 : 30));
    figures.push(...measured);
    const smallest = measured[0]!;
    for (const f of measured) {
      rows.push({
        records: `${f.count.toLocaleString('en')} ${kind}`,
        'seed s': round(f.seedMs / 1000, 1),
        'longest create ms': round(f.longestCreate.anyMs, 1),
        'without a GC pause': round(f.longestCreate.withoutPauseMs, 1),
        'list page ms': round(f.listPageMs, 2),
        'page vs smallest': ratio(f.listPageMs, smallest.listPageMs),
        'list cursor ms': round(f.listCursorMs, 2),
        'cursor vs smallest': ratio(f.listCursorMs, smallest.listCursorMs),
        'events page ms': f.eventsPageMs === null ? null : round(f.eventsPageMs, 2),
        'events vs smallest': f.eventsPageMs === null || smallest.eventsPageMs === null ? null : ratio(f.eventsPageMs, smallest.eventsPageMs),
        'heap B/record': f.count >= bytesShownFrom ? f.heapBytesPerRecord : null,
        'RSS B/record': f.count >= bytesShownFrom ? f.rssBytesPerRecord : null,
        'RSS MB': f.rssMb,
      });
    }
  }
  return { name: 'scale', rows, details: { targets: { latencyRatioAt1M: 1.5, bytesPerDeposit: recordBytesBounds.deposit, bytesPerOrder: recordBytesBounds.order }, figures } };
}
