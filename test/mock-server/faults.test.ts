// Faults injected into the mock's own API operations (control injectFault, listFaults,
// removeFault, clearFaults), over real HTTP with the generated clients in strict mode: an error
// status in the family's envelope (declared ones and the catalog's 500), a connection reset and a
// latency; the next N calls or a seeded share of them; scoped to a v3 key or a v1 site; after
// authentication and before idempotency; listed, removed, cleared, and gone after a reset.
import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { ExchangeV3Client } from '../../generated/exchange-v3/client.js';
import type { FaultRequest } from '../../generated/sandbox-control/types.js';
import { expectContractBody } from './support/contract.js';
import { failure } from './support/failure.js';
import { bearer, send } from './support/http.js';
import { mintKey } from './support/keys.js';
import { startTestServer, useFrozenSandbox, type TestServer } from './support/server.js';
import { newSite } from './support/sites.js';

let server: TestServer;
useFrozenSandbox({ seed: 2203 }, (started) => {
  server = started;
});

async function inject(body: FaultRequest) {
  const response = await server.control.injectFault({ body });
  expectContractBody('control', 'injectFault', response.status, response.body);
  return response.body.result.fault;
}

async function faultsInForce() {
  const response = await server.control.listFaults();
  expectContractBody('control', 'listFaults', response.status, response.body);
  return response.body.result.faults;
}

/** Outcome of one call: its status, or the error that ended it. */
async function statusOf(call: Promise<{ status: number }>): Promise<number> {
  try {
    return (await call).status;
  } catch (error) {
    if (error instanceof Error && 'status' in error && typeof error.status === 'number') return error.status;
    throw error;
  }
}

async function siteClient(target: TestServer) {
  const { site, v1 } = await newSite(target);
  return { siteId: site.id, v1 };
}

/** A raw GET that reports how the connection ended: a status, or the socket error's code. */
function rawOutcome(url: string, headers: Record<string, string>): Promise<{ status: number } | { errorCode: string }> {
  return new Promise((resolve) => {
    const req = httpRequest(url, { headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ errorCode: error.code ?? error.message }));
    req.end();
  });
}

describe('an error answer', () => {
  it('answers a status the operation declares in the v3 envelope, with the catalog code, its condition and Retry-After on 429', async () => {
    const fault = await inject({ operation: 'privatePing', error: { status: 429 } });
    expect(fault).toMatchObject({ operation: 'privatePing', family: 'v3', error: { status: 429, code: 'rate_limit_exceeded', retry_after_seconds: 1 }, times_left: null, applied: 0 });

    const response = await send(server.url, '/api/v3/private/ping', { headers: bearer(server.token) });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('1');
    expectContractBody('v3', 'privatePing', 429, response.json);
    expect(response.json).toMatchObject({ state: 1, result: null, error: { code: 'rate_limit_exceeded' }, message: fault.error?.message });
    // The platform admitted the call first: the limit headers of the key are there.
    expect(response.headers.get('x-ratelimit-limit')).not.toBeNull();
  });

  it("answers the catalog's 500 on an operation that does not list it, passing strict mode", async () => {
    await inject({ operation: 'getClient', error: { status: 500, message: 'Injected outage.' } });
    const error = await failure(server.v3.getClient());
    expect(error.status).toBe(500);
    expect(error.code).toBe('internal_error');
    expect(error.body).toMatchObject({ state: 1, message: 'Injected outage.', result: null, meta: { request_id: error.requestId } });
  });

  it('answers in the v1 body format with the chosen code and details', async () => {
    await inject({ operation: 'listDeposits', error: { status: 422, code: 'VALIDATION_ERROR', details: { status: ['is not offered now'] } } });
    const error = await failure(server.v1.listDeposits({ query: {} }));
    expect(error.status).toBe(422);
    expectContractBody('v1', 'listDeposits', 422, error.body);
    expect(error.body).toMatchObject({ error: { code: 'VALIDATION_ERROR', details: { status: ['is not offered now'] } }, requestId: error.requestId });
  });

  it('refuses a status the operation does not declare, naming the ones it may answer', async () => {
    const error = await failure(server.control.injectFault({ body: { operation: 'privatePing', error: { status: 404 } } }));
    expect(error.status).toBe(422);
    expect(error.details['error.status']).toEqual(['privatePing may answer 401, 403, 422, 429, 500, 501']);
    expect(await faultsInForce()).toEqual([]);
  });
});

describe('a connection reset', () => {
  it('destroys the connection without an answer (the client sees ECONNRESET); the next call is answered', async () => {
    await inject({ operation: 'privatePing', reset: true, times: 1 });
    expect(await rawOutcome(`${server.url}/api/v3/private/ping`, bearer(server.token))).toEqual({ errorCode: 'ECONNRESET' });
    expect(await rawOutcome(`${server.url}/api/v3/private/ping`, bearer(server.token))).toEqual({ status: 200 });
  });

  it('reaches a client through fetch as a network failure', async () => {
    await inject({ operation: 'ping', reset: true });
    const cause = await server.v3Public.ping().then(
      () => undefined,
      (error: unknown) => (error as { cause?: { code?: string } }).cause,
    );
    expect(cause?.code).toBe('ECONNRESET');
  });
});

describe('latency', () => {
  it('holds a call past a client timeout, and the operation still runs afterwards, as on a late server', async () => {
    const { siteId, v1 } = await siteClient(server);
    await inject({ operation: 'createDeposit', site_id: siteId, latency_ms: 1500, times: 1 });
    const aborted = await v1.createDeposit({ body: { order_id: 'LATE-1', asset: 'USDT_TRON', amount: '5.00' }, signal: AbortSignal.timeout(100) }).then(
      () => 'answered',
      (error: unknown) => (error as Error).name,
    );
    expect(aborted).toBe('TimeoutError');
    // The deposit appears once the delay is over, though nobody waited for the answer.
    await expect.poll(async () => (await v1.listDeposits({ query: {} })).body.data.map((d) => d.orderId), { timeout: 10_000, interval: 100 }).toEqual(['LATE-1']);
  });

  it('combines with an error: the call waits, then fails', async () => {
    const fault = await inject({ operation: 'privatePing', latency_ms: { min: 10, max: 40 }, error: { status: 403 } });
    expect(fault.latency_ms).toEqual({ min: 10, max: 40 });
    const error = await failure(server.v3.privatePing());
    expect([error.status, error.code]).toEqual([403, 'client_inactive']);
  });
});

describe('which calls', () => {
  it('acts on the next N calls, counts them, then is gone', async () => {
    const fault = await inject({ operation: 'privatePing', error: { status: 403 }, times: 2 });
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push(await statusOf(server.v3.privatePing()));
    expect(statuses).toEqual([403, 403, 200]);
    expect((await faultsInForce()).map((f) => f.id)).not.toContain(fault.id);
  });

  it('shows how many calls a fault acted on and how many it still will', async () => {
    await inject({ operation: 'privatePing', error: { status: 403 }, times: 3 });
    await statusOf(server.v3.privatePing());
    expect(await faultsInForce()).toMatchObject([{ applied: 1, times_left: 2 }]);
  });

  it('acts on a seeded share of calls: the same seed gives the same calls, run after run', async () => {
    const pattern = async (target: TestServer, seed: number) => {
      await target.control.injectFault({ body: { operation: 'privatePing', error: { status: 403 }, probability: 0.5, seed } });
      const statuses = [];
      for (let i = 0; i < 24; i += 1) statuses.push(await statusOf(target.v3.privatePing()));
      await target.control.clearFaults();
      return statuses;
    };
    const other = await startTestServer({ seed: 99 });
    try {
      const first = await pattern(server, 7);
      expect(first).toEqual(await pattern(other, 7));
      expect(first.filter((s) => s === 403).length).toBeGreaterThan(0);
      expect(first.filter((s) => s === 200).length).toBeGreaterThan(0);
      expect(await pattern(server, 8)).not.toEqual(first);
    } finally {
      await other.close();
    }
  });

  it('draws a default seed from the sandbox seed: a reset with the same seed replays the same share', async () => {
    const run = async () => {
      await server.control.resetSandbox({ body: { seed: 5 } });
      const fault = await inject({ operation: 'privatePing', reset: true, probability: 0.3 });
      const outcomes = [];
      for (let i = 0; i < 16; i += 1) outcomes.push(await rawOutcome(`${server.url}/api/v3/private/ping`, bearer(server.token)));
      return { seed: fault.seed, outcomes };
    };
    const first = await run();
    expect(await run()).toEqual(first);
    expect(first.outcomes).toContainEqual({ errorCode: 'ECONNRESET' });
    expect(first.outcomes).toContainEqual({ status: 200 });
  });

  it("scoped to a v3 key, fails that key's calls only", async () => {
    const key = await mintKey(server);
    await inject({ operation: 'privatePing', key_id: key.id, error: { status: 403 } });
    const minted = new ExchangeV3Client({ baseUrl: server.url, token: key.token, retry: false });
    expect(await statusOf(minted.privatePing())).toBe(403);
    expect(await statusOf(server.v3.privatePing())).toBe(200);
  });

  it("scoped to a v1 site, fails that site's calls only", async () => {
    const { siteId, v1 } = await siteClient(server);
    await inject({ operation: 'listAssets', site_id: siteId, error: { status: 401 } });
    expect(await statusOf(v1.listAssets())).toBe(401);
    expect(await statusOf(server.v1.listAssets())).toBe(200);
  });

  it('tries scoped faults before unscoped ones and newer before older; a call gets one fault', async () => {
    const key = await mintKey(server);
    const minted = new ExchangeV3Client({ baseUrl: server.url, token: key.token, retry: false });
    await inject({ operation: 'privatePing', key_id: key.id, error: { status: 422 }, times: 1 });
    await inject({ operation: 'privatePing', error: { status: 403 }, times: 1 });
    await inject({ operation: 'privatePing', error: { status: 429 }, times: 1 });
    expect(await statusOf(minted.privatePing())).toBe(422);
    expect(await statusOf(minted.privatePing())).toBe(429);
    expect(await statusOf(minted.privatePing())).toBe(403);
    expect(await statusOf(minted.privatePing())).toBe(200);
  });

  it('does not act on a call the platform refuses: an unauthenticated call is still a 401', async () => {
    await inject({ operation: 'privatePing', error: { status: 429 }, times: 1 });
    const error = await failure(server.v3Public.privatePing());
    expect([error.status, error.code]).toEqual([401, 'authentication_required']);
    expect(await faultsInForce()).toMatchObject([{ applied: 0, times_left: 1 }]);
  });

  it('acts before idempotency: a faulted call stores nothing, so a retry with the same key runs the operation', async () => {
    await inject({ operation: 'createDeposit', error: { status: 500 }, times: 1 });
    const input = { headers: { 'X-Idempotency-Key': 'fault-retry-0001' }, body: { order_id: 'IDEM-1', asset: 'USDT_TRON', amount: '7.00' } };
    expect((await failure(server.v1.createDeposit(input))).status).toBe(500);
    const created = await server.v1.createDeposit(input);
    expect(created.status).toBe(201);
    expect(created.body.data.orderId).toBe('IDEM-1');
  });
});

describe('the Faults room', () => {
  it('refuses what cannot act, naming the field', async () => {
    const cases: [FaultRequest, string][] = [
      [{ operation: 'noSuchOperation', reset: true }, 'operation'],
      [{ operation: 'privatePing' }, 'latency_ms'],
      [{ operation: 'privatePing', reset: true, error: { status: 403 } }, 'reset'],
      [{ operation: 'privatePing', latency_ms: { min: 50, max: 10 } }, 'latency_ms.max'],
      [{ operation: 'createDeposit', key_id: 1, reset: true }, 'key_id'],
      [{ operation: 'ping', key_id: 1, reset: true }, 'key_id'],
      [{ operation: 'privatePing', site_id: 1, reset: true }, 'site_id'],
      [{ operation: 'privatePing', error: { status: 403, code: 'rate_limit_exceeded' } }, 'error.code'],
    ];
    for (const [body, field] of cases) {
      const error = await failure(server.control.injectFault({ body }));
      expect([error.status, error.code], JSON.stringify(body)).toEqual([422, 'validation_error']);
      expect(Object.keys(error.details), JSON.stringify(body)).toContain(field);
      expectContractBody('control', 'injectFault', 422, error.body);
    }
    const outOfBounds = await failure(server.control.injectFault({ body: { operation: 'privatePing', reset: true, probability: 1.5 } }));
    expect(outOfBounds.details).toHaveProperty(['probability']);
    expect(await faultsInForce()).toEqual([]);
  });

  it('lists faults oldest first, removes one by id (404 for an unknown one) and clears the rest', async () => {
    const first = await inject({ operation: 'privatePing', latency_ms: 5 });
    const second = await inject({ operation: 'listAssets', reset: true, probability: 0.25, seed: 11 });
    expect(await faultsInForce()).toEqual([first, second]);
    expect(second).toMatchObject({ family: 'v1', reset: true, probability: 0.25, seed: 11, latency_ms: null, error: null });

    expect((await server.control.removeFault({ path: { fault: first.id } })).body.result).toEqual({ cleared: 1 });
    const missing = await failure(server.control.removeFault({ path: { fault: first.id } }));
    expect([missing.status, missing.code]).toEqual([404, 'not_found']);
    expect((await faultsInForce()).map((f) => f.id)).toEqual([second.id]);

    const third = await inject({ operation: 'privatePing', reset: true });
    expect((await server.control.clearFaults()).body.result).toEqual({ cleared: 2 });
    expect(await faultsInForce()).toEqual([]);
    // Ids go on after a clear, so an id never names another fault.
    expect((await inject({ operation: 'privatePing', reset: true })).id).toBe(third.id + 1);
  });

  it('loses every fault on a reset, and numbers them from 1 again', async () => {
    await inject({ operation: 'privatePing', error: { status: 403 } });
    await inject({ operation: 'privatePing', error: { status: 403 } });
    await server.control.resetSandbox();
    expect(await faultsInForce()).toEqual([]);
    expect(await statusOf(server.v3.privatePing())).toBe(200);
    expect((await inject({ operation: 'privatePing', reset: true })).id).toBe(1);
  });
});
