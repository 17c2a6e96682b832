// A 422's details name the field and what is wrong with it, never the validator's own walk
// through the schema (`must match "then" schema`, `must match exactly one schema in oneOf`):
// a union with no specific error left names its choices, as the contract writes them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure } from './support/failure.js';
import { bearer, send } from './support/http.js';
import { startTestServer, type TestServer } from './support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ seed: 5 });
});
afterAll(async () => {
  await server.close();
});

let keys = 0;
// A fresh Idempotency-Key each time: a key sent again with another body is a 409.
const idempotencyKey = () => `details-${String((keys += 1)).padStart(4, '0')}`;

async function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; details: unknown }> {
  const response = await send(server.url, path, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: response.status, details: (response.json as { error: { details: unknown } }).error.details };
}

const requisites = { to_address: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE' };

describe('validation details', () => {
  it.each([
    [
      'an order with neither quote_id nor route_id and amount: the two ways to give one',
      '/api/v3/private/exchange/orders',
      { email: 'alice@example.com', requisites },
      { body: ['must be exactly one of: an object with quote_id; an object with route_id and amount'] },
    ],
    [
      'an order citing a quote and a route at once: the same choices',
      '/api/v3/private/exchange/orders',
      { quote_id: '7c9e6679-7425-40de-944b-e07fc1f90ae7', route_id: 1, amount: '10', email: 'alice@example.com', requisites },
      { body: ['must be exactly one of: an object with quote_id; an object with route_id and amount'] },
    ],
    ['a clock advance by a negative number of seconds: only the rule it breaks', '/__mock/clock/advance', { seconds: -1 }, { seconds: ['must be > 0'] }],
    ['a fault latency below zero: the integer branch is the one that applies', '/__mock/faults', { operation: 'createOrder', latency_ms: -5 }, { latency_ms: ['must be >= 0'] }],
    [
      'a fault latency of the wrong kind: the field and its choices',
      '/__mock/faults',
      { operation: 'createOrder', latency_ms: 'fast' },
      { latency_ms: ['must be exactly one of: an integer; an object with min and max'] },
    ],
    [
      'a clock advance by seconds with a field neither form takes: that field, not the choices',
      '/__mock/clock/advance',
      { seconds: 60, freeze: true },
      { freeze: ['is not allowed'] },
    ],
    [
      'a fault latency range with a field the range does not take: that field',
      '/__mock/faults',
      { operation: 'createOrder', latency_ms: { min: 1, max: 5, mean: 3 } },
      { 'latency_ms.mean': ['is not allowed'] },
    ],
  ])('%s', async (_case, path, body, details) => {
    const answer = await post(path, body, path.startsWith('/api/v3') ? { ...bearer(server.token), 'Idempotency-Key': idempotencyKey() } : {});
    expect(answer).toEqual({ status: 422, details });
  });

  it('an allow-list entry that is no address: one message with every accepted form', async () => {
    const answer = await post('/__mock/tokens', { ip_allowlist: ['not-an-ip'] });
    expect(answer.status).toBe(422);
    const messages = (answer.details as Record<string, string[]>)['ip_allowlist.0'];
    expect(messages).toHaveLength(1);
    expect(messages![0]).toMatch(/^must be one of: a valid ipv4; a valid ipv6; a string matching "/);
  });

  it('a state document of another version: the value the field must have, not "must be equal to constant"', async () => {
    const exported = await send(server.url, '/__mock/state', { method: 'GET' });
    const document = { ...(exported.json as { result: Record<string, unknown> }).result, version: 99 };
    const answer = await send(server.url, '/__mock/state', { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(document) });
    expect({ status: answer.status, details: (answer.json as { error: { details: unknown } }).error.details }).toEqual({ status: 422, details: { version: ['must be 1'] } });
  });

  it('a v1 transaction check without txHash: txHash is required, no "then" schema', async () => {
    const error = await failure(server.v1.createAmlCheck({ body: { type: 'transaction', currency: 'USDT', network: 'TRON', address: requisites.to_address } }));
    expect({ status: error.status, details: error.details }).toEqual({ status: 422, details: { txHash: ['is required'] } });
  });
});
