// The whole conformance run against the mock on 20 seeds (one mock, reset to each seed through
// the control API): every check runs and passes on each (the exchange flow finds a route on every
// catalog a seed draws, with requisites built from the route's own rules), and each run is the
// same list of checks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../conformance/index.js';
import { SandboxControlClient } from '../../generated/sandbox-control/client.js';
import { startMockServer, type RunningMockServer } from '../../mock-server/server.js';
import { describeResults, runAgainst } from './support/run.js';

// The README's CI seed, seeds that used to skip the exchange flow, and more.
const seeds = [42, 1, 2, 3, 1234, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18];

let mock: RunningMockServer;
const reports = new Map<number, Report>();

beforeAll(async () => {
  mock = await startMockServer({ port: 0, seed: seeds[0], strict: true, loopbackWebhooksOnly: true });
  const control = new SandboxControlClient({ baseUrl: mock.url });
  for (const seed of seeds) {
    await control.resetSandbox({ body: { seed } });
    reports.set(seed, await runAgainst(mock));
  }
}, 600_000);

afterAll(() => mock.close());

describe('conformance of the mock on 20 seeds', () => {
  it.each(seeds)('seed %i: nothing fails, nothing is skipped', (seed) => {
    const report = reports.get(seed)!;
    const notPassed = report.results.filter((result) => result.outcome !== 'pass');
    expect(notPassed, describeResults(notPassed)).toEqual([]);
    expect(report.results.some((result) => result.operation === 'flow:exchange' && result.check === 'machine')).toBe(true);
  });

  it('runs the same checks on every seed', () => {
    const checksOf = (report: Report) => report.results.map((result) => `${result.operation} ${result.check}`);
    const first = checksOf(reports.get(seeds[0]!)!);
    expect(first.length).toBeGreaterThan(700);
    expect(new Set(first).size).toBe(first.length);
    for (const seed of seeds) expect(checksOf(reports.get(seed)!), `seed ${seed}`).toEqual(first);
  });
});
