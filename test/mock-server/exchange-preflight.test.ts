// Preflight over real HTTP through the generated ExchangeV3Client (strict mode): every check of
// order creation on the same body, reported one by one, each proven to pass and to fail, with
// the verifications the route and amount need. Nothing is created.
import Ajv2020Module from 'ajv/dist/2020.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { ApiError, ExchangeV3Client } from '../../generated/exchange-v3/client.js';
import type { CreateOrderRequest, ExchangeRoute, OrderPreflight } from '../../generated/exchange-v3/types.js';
import { failure } from './support/failure.js';
import { btcAddress, tronAddress, visa } from './support/requisites.js';
import { useFrozenSandbox, type TestServer } from './support/server.js';

// ajv is CommonJS with a default export; under NodeNext it sits on `.default`.
const Ajv2020 = Ajv2020Module.default;

let server: TestServer;
useFrozenSandbox({ seed: 93 }, (started) => {
  server = started;
});


let all: ExchangeRoute[];
beforeEach(async () => {
  all = [];
  for (let page = 1; page <= 2; page += 1) all.push(...(await server.v3.listRoutes({ query: { per_page: 100, page } })).body.result.routes);
});

function route(from: string, to: string): ExchangeRoute {
  return all.find((r) => r.from.code === from && r.to.code === to)!;
}

async function preflight(body: CreateOrderRequest, client = server.v3): Promise<OrderPreflight> {
  const { status, body: envelope } = await client.preflightOrder({ body });
  expect(status).toBe(200);
  return envelope.result.preflight;
}

/** Only the named checks failed, each with a message, and errors name exactly these fields. */
function expectFailed(result: OrderPreflight, checks: string[], fields: string[]): void {
  expect(result.ok).toBe(false);
  expect(result.checks.filter((c) => !c.passed).map((c) => c.name).sort()).toEqual([...checks].sort());
  for (const check of result.checks) expect(check.message === null).toBe(check.passed);
  expect(Object.keys(result.errors).sort()).toEqual([...fields].sort());
}

const byRoute = (r: ExchangeRoute, extra: Partial<CreateOrderRequest> = {}): CreateOrderRequest =>
  ({ route_id: r.id, amount: r.limits.min_give, email: 'alice@example.com', requisites: { to_address: tronAddress }, ...extra }) as CreateOrderRequest;

describe('preflightOrder', () => {
  it('passes every check for a good body, in both forms', async () => {
    const r = route('BTC', 'USDTTRC20');
    const byRouteResult = await preflight(byRoute(r));
    expect(byRouteResult).toEqual({
      ok: true,
      checks: ['route', 'quote', 'snapshot', 'amount', 'limits', 'requisites', 'email', 'verification'].map((name) => ({ name, passed: true, message: null })),
      errors: {},
      quote: null,
      verification_required: { identity: false, card: false },
    });
    const quote = (await server.v3.createQuote({ body: { route_id: r.id, amount: r.limits.min_give } })).body.result.quote;
    const { snapshot } = (await server.v3.getRouteDetails({ path: { route: r.id } })).body.result;
    const byQuote = await preflight({ quote_id: quote.id, route_id: r.id, amount_side: 'give', snapshot_hash: snapshot.hash, email: 'bob@example.com', requisites: { to_address: tronAddress }, client_order_id: 'inv-1' });
    expect(byQuote).toMatchObject({ ok: true, errors: {}, quote });
  });

  it('fails the route check for an unknown or suspended route', async () => {
    expectFailed(await preflight(byRoute({ ...route('BTC', 'USDTTRC20'), id: 9999 })), ['route'], ['route_id']);
    const suspended = all.find((r) => !r.is_enabled)!;
    expectFailed(await preflight(byRoute(suspended, { requisites: { to_address: 'DH5yaieqoZN36fDVciNyRueRGvGLR3mr7L' } })), ['route'], ['route_id']);
  });

  it("fails the quote check for an unknown quote, another client's, and one that does not match route_id or amount_side", async () => {
    const r = route('BTC', 'USDTTRC20');
    const body = { email: 'alice@example.com', requisites: { to_address: tronAddress } };
    const unknown = await preflight({ quote_id: '7c9e6679-7425-40de-944b-e07fc1f90ae7', ...body });
    expect(unknown.checks.find((c) => c.name === 'quote')!.passed).toBe(false);
    expect(unknown.errors.quote_id).toEqual([expect.any(String)]);
    expect(unknown.quote).toBeNull();

    const quote = (await server.v3.createQuote({ body: { route_id: r.id, amount: r.limits.min_give } })).body.result.quote;
    const minted = await server.control.mintToken();
    const stranger = new ExchangeV3Client({ baseUrl: server.url, token: minted.body.result.token, retry: false });
    expect((await preflight({ quote_id: quote.id, ...body }, stranger)).errors).toHaveProperty(['quote_id']);

    const other = route('BTC', 'USDTERC20');
    expectFailed(await preflight({ quote_id: quote.id, route_id: other.id, amount_side: 'receive', ...body }), ['quote'], ['route_id', 'amount_side']);
  });

  it('fails the snapshot check when the route changed since the snapshot', async () => {
    const r = route('BTC', 'USDTTRC20');
    const stale = 'f'.repeat(64);
    expectFailed(await preflight(byRoute(r, { snapshot_hash: stale })), ['snapshot'], ['snapshot_hash']);
  });

  it('fails the amount check for a zero amount and the limits check outside the limits', async () => {
    const r = route('BTC', 'USDTTRC20');
    expectFailed(await preflight(byRoute(r, { amount: '0' })), ['amount'], ['amount']);
    const over = await preflight(byRoute(r, { amount: (Number(r.limits.max_give) * 2).toFixed(8) }));
    expectFailed(over, ['limits'], ['amount']);
    expect(over.errors.amount![0]).toContain(r.limits.max_give);
    expectFailed(await preflight(byRoute(r, { amount: '1000000', amount_side: 'receive' })), ['limits'], ['amount']);
  });

  it('checks requisites against the route: the fields it needs, no others, each in its format', async () => {
    const tron = route('BTC', 'USDTTRC20');
    expectFailed(await preflight(byRoute(tron, { requisites: { to_address: btcAddress } })), ['requisites'], ['requisites.to_address']);
    expectFailed(await preflight(byRoute(tron, { requisites: { to_address: tronAddress, to_card_number: visa } })), ['requisites'], ['requisites.to_card_number']);
    expectFailed(await preflight(byRoute(tron, { requisites: {} })), ['requisites'], ['requisites.to_address']);

    const xrp = route('BTC', 'XRP');
    const xrpAddress = 'rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh';
    expect((await preflight(byRoute(xrp, { requisites: { to_address: xrpAddress, to_memo: '104857' } }))).ok).toBe(true);
    expectFailed(await preflight(byRoute(xrp, { requisites: { to_address: xrpAddress } })), ['requisites'], ['requisites.to_memo']);
    expectFailed(await preflight(byRoute(xrp, { requisites: { to_address: xrpAddress, to_memo: 'not-a-tag' } })), ['requisites'], ['requisites.to_memo']);

    const toCard = route('BTC', 'CARDUSD');
    expect((await preflight(byRoute(toCard, { requisites: { to_card_number: visa, holder_name: 'ALICE SMITH' } }))).ok).toBe(true);
    expectFailed(await preflight(byRoute(toCard, { requisites: { to_card_number: '4111111111111112', holder_name: 'ALICE SMITH' } })), ['requisites'], ['requisites.to_card_number']);

    const toWallet = route('BTC', 'PMUSD');
    expect((await preflight(byRoute(toWallet, { requisites: { to_account: 'U1234567' } }))).ok).toBe(true);
    expectFailed(await preflight(byRoute(toWallet, { requisites: { to_account: 'P1234567' } })), ['requisites'], ['requisites.to_account']);
  });

  it("publishes each route's requisites as a JSON Schema whose examples pass the route's checks, and refuse what breaks it", async () => {
    const ajv = new Ajv2020({ strict: false });
    for (const r of all.filter((candidate) => candidate.is_enabled)) {
      const { requisites } = (await server.v3.getRouteCapabilities({ path: { route: r.id } })).body.result.capabilities;
      const schema = requisites!.schema as { required: string[]; properties: Record<string, { examples: string[]; pattern?: string }> };
      expect(schema.required.sort(), r.name).toEqual([...new Set([...requisites!.from!, ...requisites!.to!])].sort());
      const filled = Object.fromEntries(schema.required.map((field) => [field, schema.properties[field]!.examples[0]!]));
      expect(ajv.validate(schema, filled), `${r.name}: ${ajv.errorsText()}`).toBe(true);
      const result = await preflight(byRoute(r, { requisites: filled }));
      expect(result.checks.find((c) => c.name === 'requisites'), r.name).toEqual({ name: 'requisites', passed: true, message: null });
      // A value the published pattern refuses, the route refuses too (in preflight, or before it
      // where the contract's own bounds already refuse it).
      const patterned = schema.required.find((field) => schema.properties[field]!.pattern !== undefined);
      if (patterned !== undefined) {
        const broken = { ...filled, [patterned]: '!' };
        expect(ajv.validate(schema, broken)).toBe(false);
        const answer = await server.v3.preflightOrder({ body: byRoute(r, { requisites: broken }) }).catch((error: unknown) => error as ApiError);
        const fields = answer instanceof ApiError ? answer.details : answer.body.result.preflight.errors;
        expect(Object.keys(fields), r.name).toContain(`requisites.${patterned}`);
      }
    }
  });

  it('fails the email check for an undeliverable domain', async () => {
    expectFailed(await preflight(byRoute(route('BTC', 'USDTTRC20'), { email: 'alice@shop.invalid' })), ['email'], ['email']);
  });

  it('reports the verifications the route and amount need, without failing', async () => {
    const card = route('CARDUSD', 'BTC');
    const byCard = await preflight(byRoute(card, { requisites: { from_card_number: visa, holder_name: 'ALICE SMITH', to_address: btcAddress } }));
    expect(byCard).toMatchObject({ ok: true, verification_required: { identity: false, card: true } });

    const crypto = route('BTC', 'USDTTRC20');
    const small = await preflight(byRoute(crypto));
    const large = await preflight(byRoute(crypto, { amount: crypto.limits.max_give }));
    expect(small.verification_required).toEqual({ identity: false, card: false });
    expect(large).toMatchObject({ ok: true, verification_required: { identity: true, card: false } });

    const wire = route('BTC', 'WIREEUR');
    expect((await preflight(byRoute(wire, { requisites: { to_account: 'DE89370400440532013000', holder_name: 'ALICE SMITH' } }))).verification_required.identity).toBe(true);
  });

  it('reports every failing check at once', async () => {
    const r = route('BTC', 'USDTTRC20');
    const result = await preflight(byRoute(r, { amount: '0', email: 'a@b.invalid', requisites: { to_address: 'nope' }, snapshot_hash: 'a'.repeat(64) }));
    expectFailed(result, ['snapshot', 'amount', 'requisites', 'email'], ['snapshot_hash', 'amount', 'requisites.to_address', 'email']);
  });

  it('answers a body that does not match the schema with 422', async () => {
    const both = { quote_id: '7c9e6679-7425-40de-944b-e07fc1f90ae7', route_id: 1, amount: '1', email: 'a@example.com', requisites: {} };
    expect((await failure(server.v3.preflightOrder({ body: both }))).status).toBe(422);
    expect((await failure(server.v3.preflightOrder({ body: { route_id: 1, amount: '1', email: 'not-an-email', requisites: {} } }))).status).toBe(422);
  });
});
