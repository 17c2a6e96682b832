// What "the same request" means for an idempotency key, over real HTTP against the mock: a JSON
// body is compared by its meaning, not its bytes. The same data serialised another way (keys in
// another order, whitespace, pretty-printing, a character written as an escape) replays the
// stored answer; a changed value, an added or a missing field is still a conflict. Both
// families: v3 Idempotency-Key (createQuote), v1 X-Idempotency-Key (createAmlCheck, signed over
// the exact bytes sent). Uploads: test/security/multipart-signature.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHmacSigner, depositV1SignatureScheme } from '../../generated/deposit-v1/client.js';
import { depositV1IdempotencyFailures } from '../../generated/deposit-v1/routes.js';
import { exchangeV3IdempotencyFailures } from '../../generated/exchange-v3/routes.js';
import { replayedHeader } from '../../mock-server/http/idempotency.js';
import { errorCodeOf } from './support/contract.js';
import { bearer, send, type RawResponse } from './support/http.js';
import { fillPath, routeOf } from './support/paths.js';
import { startTestServer, type TestServer } from './support/server.js';

let mock: TestServer;

beforeAll(async () => {
  mock = await startTestServer({ seed: 97 });
  mock.sandbox.stopDispatching();
});

afterAll(async () => {
  await mock?.close();
});

/** The outcome of one attempt: status, whether it was replayed, the error code if any. */
function outcome(response: RawResponse): { status: number; replayed: boolean; code: string | undefined } {
  return { status: response.status, replayed: response.headers.get(replayedHeader) === 'true', code: errorCodeOf(response.json) };
}

describe('v3 Idempotency-Key: a JSON body is the same request by its meaning', () => {
  const route = routeOf('v3', 'createQuote');
  const path = fillPath('v3', route, {});
  const conflict = exchangeV3IdempotencyFailures['key-reused'];
  let body: { route_id: number; amount: string };

  beforeAll(async () => {
    const listed = (await mock.v3.listRoutes({ query: { per_page: 1 } })).body.result.routes[0]!;
    body = { route_id: listed.id, amount: listed.limits.min_give };
  });

  /** POSTs `text` as the body, exactly as given. */
  const post = (key: string, text: string) =>
    send(mock.url, path, { method: 'POST', headers: { ...bearer(mock.token), 'content-type': 'application/json', [route.idempotency!.header]: key }, body: text });
  const quoteIdOf = (response: RawResponse) => (response.json as { result: { quote: { id: string } } }).result.quote.id;

  it('replays the first answer to the same data with its keys reordered, spaced out or pretty-printed', async () => {
    const first = await post('quote-meaning-0001', JSON.stringify(body));
    expect(outcome(first)).toEqual({ status: 200, replayed: false, code: undefined });
    const reordered = await post('quote-meaning-0001', `{"amount":${JSON.stringify(body.amount)},"route_id":${body.route_id}}`);
    const spaced = await post('quote-meaning-0001', `{"route_id":${body.route_id}, "amount":${JSON.stringify(body.amount)}}`);
    const pretty = await post('quote-meaning-0001', `${JSON.stringify(body, null, 2)}\n`);
    for (const repeat of [reordered, spaced, pretty]) {
      expect(outcome(repeat)).toEqual({ status: 200, replayed: true, code: undefined });
      expect(quoteIdOf(repeat)).toBe(quoteIdOf(first));
    }
  });

  it('still refuses a changed value, an added field and a missing one with 409', async () => {
    expect((await post('quote-meaning-0002', JSON.stringify(body))).status).toBe(200);
    const changed = await post('quote-meaning-0002', JSON.stringify({ ...body, route_id: body.route_id + 1 }));
    const added = await post('quote-meaning-0002', JSON.stringify({ ...body, quote_note: 'x' }));
    const missing = await post('quote-meaning-0002', JSON.stringify({ route_id: body.route_id }));
    const retyped = await post('quote-meaning-0002', JSON.stringify({ ...body, route_id: String(body.route_id) }));
    for (const reuse of [changed, added, missing, retyped]) {
      expect(outcome(reuse)).toEqual({ status: conflict.status, replayed: false, code: conflict.code });
    }
  });
});

describe('v1 X-Idempotency-Key: a JSON body is the same request by its meaning', () => {
  const route = routeOf('v1', 'createAmlCheck');
  const path = fillPath('v1', route, {});
  const conflict = depositV1IdempotencyFailures['key-reused'];
  const address = 'TXFBqBbqJommqZf7BV8NNYzePh97UmJodJ';

  /** POSTs `text` as the body, signed over exactly those bytes as a v1 client signs. */
  async function post(key: string, text: string): Promise<RawResponse> {
    const headers = new Headers({ 'content-type': 'application/json', [route.idempotency!.header]: key });
    const signer = createHmacSigner(depositV1SignatureScheme, { key: mock.site.apiKey, secret: mock.site.apiSecret }, { now: () => mock.sandbox.clock.nowMs() });
    await signer({ method: 'POST', url: new URL(mock.url + path), headers, body: text });
    return send(mock.url, path, { method: 'POST', headers: Object.fromEntries(headers), body: text });
  }
  const checkIdOf = (response: RawResponse) => (response.json as { data: { uuid: string } }).data.uuid;

  it('replays the first answer to the same data with its keys reordered, spaced out or a character escaped', async () => {
    const first = await post('aml-meaning-0001', `{"currency":"USDT","network":"TRON","address":"${address}"}`);
    expect(outcome(first)).toEqual({ status: 201, replayed: false, code: undefined });
    const reordered = await post('aml-meaning-0001', `{"address":"${address}","network":"TRON","currency":"USDT"}`);
    const spaced = await post('aml-meaning-0001', `{ "currency": "USDT",\n  "network": "TRON", "address": "${address}" }`);
    const escaped = await post('aml-meaning-0001', `{"currency":"\\u0055SDT","network":"TRON","address":"${address}"}`);
    for (const repeat of [reordered, spaced, escaped]) {
      expect(outcome(repeat)).toEqual({ status: 201, replayed: true, code: undefined });
      expect(checkIdOf(repeat)).toBe(checkIdOf(first));
    }
  });

  it('still refuses a changed value with 409', async () => {
    expect((await post('aml-meaning-0002', `{"currency":"USDT","network":"TRON","address":"${address}"}`)).status).toBe(201);
    const changed = await post('aml-meaning-0002', `{"currency":"USDT","network":"TRON","address":"${address.slice(0, -1)}K"}`);
    expect(outcome(changed)).toEqual({ status: conflict.status, replayed: false, code: conflict.code });
  });
});
