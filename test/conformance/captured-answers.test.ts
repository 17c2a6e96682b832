// The mock's real answers, captured from a whole conformance run (successes, refusals of the auth
// and validation matrix, replays, the control API), held against what the contracts declare.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentedResponses, type ContractName } from '../../conformance/contract/document.js';
import { startMockServer, type RunningMockServer } from '../../mock-server/server.js';
import type { ContractKey } from '../support/contracts.js';
import { captureConformanceRun, type Capture } from './support/captured-answers.js';
import { describeResults, failures } from './support/run.js';

const contractNames: Record<ContractKey, ContractName> = { v3: 'exchange-v3', v1: 'deposit-v1', control: 'sandbox-control' };

// What HTTP itself puts on a message (framing, dates, caching validators): not the API's to declare.
const httpHeaders = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding', 'etag', 'vary', 'cache-control']);

let mock: RunningMockServer;
let capture: Capture;

beforeAll(async () => {
  mock = await startMockServer({ port: 0, seed: 8, strict: true, loopbackWebhooksOnly: true });
  capture = await captureConformanceRun(mock);
}, 120_000);

afterAll(() => mock.close());

describe('answers captured from a conformance run of the mock', () => {
  it('cover every family, successes and refusals, each matched to its operation', () => {
    expect(failures(capture.report), describeResults(failures(capture.report))).toEqual([]);
    expect(capture.unmatched).toEqual([]);
    for (const contract of ['v3', 'v1', 'control'] as const) {
      expect(capture.answers.some((a) => a.contract === contract && a.status < 300), contract).toBe(true);
    }
    expect(capture.answers.some((a) => a.contract === 'v3' && a.status >= 400)).toBe(true);
    expect(capture.answers.some((a) => a.contract === 'v1' && a.status >= 400)).toBe(true);
  });

  it('carry only headers their operation declares for their status (errors included)', () => {
    const undeclared = new Set<string>();
    for (const answer of capture.answers) {
      const declared = documentedResponses(contractNames[answer.contract], answer.operationId).get(String(answer.status));
      const names = new Set(declared?.headers.map((header) => header.name.toLowerCase()));
      answer.headers.forEach((_value, name) => {
        if (!httpHeaders.has(name) && !names.has(name)) undeclared.add(`${answer.operationId} ${answer.status}: ${name}`);
      });
    }
    expect([...undeclared].sort()).toEqual([]);
  });

  it('include the conditional headers the contracts declare on refusals and replays', () => {
    const refusedWithLimits = capture.answers.find((a) => a.contract === 'v3' && a.status === 422 && a.headers.has('x-ratelimit-limit'));
    expect(refusedWithLimits, 'a v3 validation error past authentication').toBeDefined();
    const refusedBeforeAuthentication = capture.answers.find((a) => a.contract === 'v3' && a.status === 401 && !a.headers.has('x-ratelimit-limit'));
    expect(refusedBeforeAuthentication, 'a v3 401 without rate-limit headers').toBeDefined();
    expect(capture.answers.some((a) => a.headers.get('idempotent-replayed') === 'true'), 'a replayed answer').toBe(true);
  });
});
