// The project's CI run of the conformance runner: against our mock (sandbox and writes allowed),
// every check passes; what is skipped says why.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../conformance/index.js';
import { SandboxControlClient } from '../../generated/sandbox-control/client.js';
import { startMockServer, type RunningMockServer } from '../../mock-server/server.js';
import { describeResults, failures, runAgainst } from './support/run.js';

let mock: RunningMockServer;
let report: Report;

beforeAll(async () => {
  mock = await startMockServer({ port: 0, seed: 8, strict: true, webhookEgress: 'loopback' });
  report = await runAgainst(mock);
}, 60_000);

afterAll(() => mock.close());

describe('conformance of the mock', () => {
  it('passes every check', () => {
    expect(failures(report), describeResults(failures(report))).toEqual([]);
    expect(report.summary.pass).toBeGreaterThan(100);
  });

  it('judges keys that must sign requests (--hmac-secret)', async () => {
    const minted = await new SandboxControlClient({ baseUrl: mock.url }).mintToken({ body: { hmac_required: true } });
    const signed = await runAgainst(mock, { token: minted.body.result.token, hmacSecret: minted.body.result.hmac_secret, only: ['Account'] });
    expect(failures(signed), describeResults(failures(signed))).toEqual([]);
    expect(signed.results).toContainEqual(expect.objectContaining({ operation: 'getClient', check: 'response:schema', outcome: 'pass' }));
  });

  it('uses the control API of a mock that requires an admin token (--admin-token)', async () => {
    const guarded = await startMockServer({ port: 0, seed: 11, strict: true, adminToken: 'conformance-admin-token' });
    try {
      const withToken = await runAgainst(guarded, { adminToken: 'conformance-admin-token', only: ['Account'] });
      expect(failures(withToken), describeResults(failures(withToken))).toEqual([]);
      expect(withToken.results).toContainEqual(expect.objectContaining({ operation: 'getUsage', check: 'auth:scope', outcome: 'pass' }));
      const without = await runAgainst(guarded, { only: ['Account'] });
      expect(failures(without)).toContainEqual(expect.objectContaining({ operation: 'getUsage', check: 'auth:scope' }));
    } finally {
      await guarded.close();
    }
  });

  it('walks every list to its end', () => {
    const walks = report.results.filter((r) => /^pagination:(page|cursor)-walk$/.test(r.check));
    expect(walks.map((r) => r.operation)).toContain('listRoutes');
    for (const walk of walks) expect(walk.reason, `${walk.operation} ${walk.check}`).toMatch(/page\(s\) to the end/);
  });

  it('gives a reason for every skip', () => {
    for (const skip of report.results.filter((r) => r.outcome === 'skip')) expect(skip.reason, `${skip.operation} ${skip.check}`).not.toBe('');
  });

  it('ran each kind of check', () => {
    const passed = new Set(report.results.filter((r) => r.outcome === 'pass').map((r) => `${r.operation} ${r.check}`));
    for (const row of [
      'getClient response:schema',
      'getClient auth:missing-credentials',
      'getClient auth:wrong-credentials',
      'getClient auth:scope',
      'privatePing auth:scope',
      'getDeposit auth:wrong-credentials',
      'listWebhookEvents validation:parameter',
      'createDeposit validation:body',
      'listDeposits pagination:per-page-bound',
      'listWebhookEvents pagination:cursor-walk',
      'createWebhookEndpoint idempotency:replay',
      'createDeposit idempotency:conflict',
      'flow:webhooks signature',
      'flow:webhooks payload',
      'flow:deposit machine',
      'flow:deposit payment',
      'flow:deposit webhooks',
      'flow:deposit received deposit.paid',
      'flow:deposit resent-webhook',
      'getAmlCheck response:schema',
      'getRouteDetailsByPair response:schema',
      'createOrder idempotency:replay',
      'flow:exchange machine',
      'flow:exchange status-history',
      'flow:exchange confirmOrder:confirm',
      'flow:exchange cancelOrder:cancel',
      'flow:exchange deleteOrder:cancel',
      'flow:exchange simulation',
      'flow:exchange createReview',
      'flow:webhooks signature-after-rotation',
      'flow:verification machine',
      'getUploadIntent response:schema',
      'createQuote transport:malformed-body',
      'createQuote transport:media-type',
      'createQuote transport:body-too-large',
      'createQuote transport:body-at-limit',
      'commitUploadIntent transport:media-type',
      'createDeposit transport:malformed-body',
      'createDeposit transport:body-too-large',
      'createDeposit transport:body-at-limit',
      'exchange-v3 transport:unknown-path',
      'deposit-v1 transport:unknown-path',
      'createQuote transport:wrong-method',
      'confirmOrder transport:wrong-method',
      'resendWebhookEvent transport:wrong-method',
    ]) {
      expect(passed, row).toContain(row);
    }
  });
});
