// What a sqlite: file's journal costs per answer as the sandbox grows: with 100 / 1,000 / 3,000
// orders stored (in this process, on a new file each), the CPU time of the flush after one order
// is created (its row, the header rows) and of a flush after an answer that changed nothing,
// against the baseline of an encoding of the whole domain state, measured in the same run: what
// every flush cost before the services marked what they change.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMockServer } from '../../mock-server/server.js';
import { encodeDomainState } from '../../mock-server/snapshot/journal-rows.js';
import { exportDomainState } from '../../mock-server/snapshot/sandbox-state.js';
import { openStore } from '../../mock-server/store/open-store.js';
import { median, ratio, round, type BenchResult } from './lib/report.js';
import { seedOrders } from './servers/seed-orders.js';

/** CPU time of `work`, in µs. */
function cpuUs(work: () => void): number {
  const start = process.cpuUsage();
  work();
  const spent = process.cpuUsage(start);
  return spent.user + spent.system;
}

export async function journalFlush(options: { quick: boolean }): Promise<BenchResult> {
  const counts = options.quick ? [100] : [100, 1_000, 3_000];
  const samples = options.quick ? 5 : 60;
  const scratch = mkdtempSync(join(tmpdir(), 'bench-journal-'));
  const rows = [];
  try {
    for (const count of counts) {
      const store = await openStore(`sqlite:${join(scratch, `orders-${count}.db`)}`);
      const server = await startMockServer({ store, seed: 1 });
      try {
        server.sandbox.stopDispatching();
        const { sandbox } = server;
        const journal = sandbox.journal!;
        await seedOrders(sandbox, count);
        journal.flush();
        const created: number[] = [];
        const unchanged: number[] = [];
        const whole: number[] = [];
        for (let i = 0; i < samples; i += 1) {
          await seedOrders(sandbox, 1);
          created.push(cpuUs(() => journal.flush()));
          unchanged.push(cpuUs(() => journal.flush()));
          whole.push(cpuUs(() => encodeDomainState(exportDomainState(sandbox))));
        }
        rows.push({
          orders: count,
          'flush after a create µs': round(median(created)),
          'flush, nothing changed µs': round(median(unchanged)),
          'whole encoding µs': round(median(whole)),
          'create vs whole': ratio(median(created), median(whole)),
        });
      } finally {
        await server.close();
        await store.close();
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return { name: 'journal-flush', rows, details: { samples, measure: 'CPU time (user + system) of this process, median of the samples' } };
}
