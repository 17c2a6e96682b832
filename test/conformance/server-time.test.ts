// Requests are signed with the server's time: a mock whose sandbox clock was moved a day ahead
// is judged without false TIMESTAMP_OUT_OF_WINDOW failures, whether the run reads the sandbox
// clock (--sandbox) or only the Date header of the answers; and when a server's Date is not the
// clock it checks signatures with, one line says so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxControlClient } from '../../generated/sandbox-control/client.js';
import { startMockServer, type RunningMockServer } from '../../mock-server/server.js';
import { startMutatingProxy } from './support/mutating-proxy.js';
import { describeResults, failures, runAgainst } from './support/run.js';

const day = 86_400;
let mock: RunningMockServer;

beforeAll(async () => {
  mock = await startMockServer({ port: 0, seed: 21, strict: true });
  await new SandboxControlClient({ baseUrl: mock.url }).advanceClock({ body: { seconds: day } });
});

afterAll(() => mock.close());

/**
 * A read-only run of the signed v1 family and the v3 account, as a user without the control API
 * would; a fresh sandbox has no deposits to read one by one (skipped, not the point here).
 */
const readOnly = { sandbox: false, allowWrites: false, allowSkips: true, only: ['Deposits', 'Account', 'Assets'] };

describe('signing with the server time', () => {
  it('reads the Date header when it has no sandbox to ask', async () => {
    const report = await runAgainst(mock, readOnly);
    expect(failures(report), describeResults(failures(report))).toEqual([]);
    const clock = report.results.find((r) => r.operation === 'setup' && r.check === 'server-clock');
    expect(clock?.reason).toMatch(/from the Date header of \/api\/v3\/ping: .*, \+86\d{3}\.\d s from this machine/);
    expect(report.results.some((r) => r.operation === 'listDeposits' && r.outcome === 'pass')).toBe(true);
  });

  it('reads the sandbox clock under --sandbox', async () => {
    const report = await runAgainst(mock, { ...readOnly, sandbox: true });
    expect(failures(report), describeResults(failures(report))).toEqual([]);
    expect(report.results.find((r) => r.check === 'server-clock')?.reason).toMatch(/from the sandbox clock \(GET \/__mock\/clock\): .*, \+86\d{3}\.\d s/);
  });

  it('says in one line why signatures fell outside the window when the Date header is not the signing clock', async () => {
    // A front that stamps its own (real) time on every answer: the mock checks against its sandbox clock.
    const proxy = await startMutatingProxy(mock.url, {
      response: (_request, response) => {
        const headers = new Headers(response.headers);
        headers.set('date', new Date().toUTCString());
        return { ...response, headers };
      },
    });
    try {
      const report = await runAgainst(mock, readOnly, proxy.url);
      const explained = report.results.filter((r) => r.check === 'signature-window');
      expect(explained).toHaveLength(1);
      expect(explained[0]).toMatchObject({ operation: 'setup', outcome: 'fail' });
      expect(explained[0]!.reason).toMatch(
        /^\d+ signed request\(s\) were refused for their timestamp \(window 300 s\): the first, GET \/v1\/public\/\S+, was signed at .*, the server's Date said .* \([+-]\d\.\d s\); that is inside the window: the server checks signatures against another clock than the one in its Date header$/,
      );
      expect(failures(report).some((r) => r.reason.includes('TIMESTAMP_OUT_OF_WINDOW'))).toBe(true);
    } finally {
      await proxy.close();
    }
  });
});
