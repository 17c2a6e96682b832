// The API's latency while slow senders hold connections: privatePing at 4 connections, first
// with nothing else open, then with 300 connections stuck half-way through their headers or
// body (test/support/slow-connections.ts), in one mock process with its default timeouts
// (10 s for headers, so the measurement fits before they close the slow ones). Reports p50 and
// p99 of both, the ratio, and the target (p99 under 50 ms while they are held). The
// security suite asserts the behaviour (every request answered, every slow one closed).
import { exchangeV3Routes, exchangeV3RoutesBasePath } from '../../generated/exchange-v3/routes.js';
import { sandboxControlRoutes, sandboxControlRoutesBasePath } from '../../generated/sandbox-control/routes.js';
import { openSlowConnections } from '../support/slow-connections.js';
import { load, type LoadFigures } from './lib/load.js';
import { startChild, tsxNode } from './lib/processes.js';
import { ratio, round, type BenchResult } from './lib/report.js';

const slowCount = 300;
const targetP99Ms = 50;

const pathOf = (routes: readonly { operationId: string; path: string }[], base: string, operationId: string) => `${base}${routes.find((r) => r.operationId === operationId)!.path}`;

export async function slowSenders(options: { quick: boolean }): Promise<BenchResult> {
  const seconds = options.quick ? 1 : 4;
  const server = await startChild<{ url: string; token: string }>(tsxNode, 'test/bench/servers/mock.ts');
  try {
    const { url, token } = server.info;
    const request = { url: `${url}${pathOf(exchangeV3Routes, exchangeV3RoutesBasePath, 'privatePing')}`, method: 'GET' as const, headers: { authorization: `Bearer ${token}` } };
    const quiet = await load(request, 4, seconds);
    const slow = await openSlowConnections(url, slowCount, {
      get: pathOf(exchangeV3Routes, exchangeV3RoutesBasePath, 'ping'),
      post: pathOf(sandboxControlRoutes, sandboxControlRoutesBasePath, 'advanceClock'),
    });
    const held = await load(request, 4, seconds);
    const stillOpen = slow.filter((connection) => connection.isOpen()).length;
    for (const connection of slow) connection.socket.destroy();
    const row = (condition: string, figures: LoadFigures) => ({
      condition,
      'req/s': round(figures.requestsPerSecond),
      'p50 ms': figures.p50Ms,
      'p99 ms': figures.p99Ms,
      'non-2xx': figures.non2xx,
      errors: figures.errors,
    });
    return {
      name: 'slow-senders',
      rows: [row('no slow connections', quiet), row(`${slowCount} slow connections held (${stillOpen} still open at the end)`, held)],
      details: { targetP99Ms, p99Ratio: ratio(held.p99Ms, quiet.p99Ms), meetsTarget: held.p99Ms < targetP99Ms, seconds, slowConnections: slowCount },
    };
  } finally {
    await server.stop();
  }
}
