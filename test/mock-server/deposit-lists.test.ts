// listDeposits' keyset cursor as a fast-check property over real HTTP (strict mode), and
// createDeposit's X-Idempotency-Key. The property: with N deposits (5..25) created first, a
// cursor walk with random perPage (1..7), with random extra deposits created (and the clock
// moved) between pages, returns no deposit twice and every deposit of the start exactly once;
// `meta.nextCursor` is set while deposits of the start remain; a request with `page` ignores the
// cursor (page mode). Each run uses a fresh site; runs are bounded for CI time. Last, a listed
// deposit reads as getDeposit reads it after each kind of change (the list reuses the serialised
// views of deposits that did not change).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DepositV1Client, createHmacSigner, depositV1SignatureScheme } from '../../generated/deposit-v1/client.js';
import { failure } from './support/failure.js';
import { headerRecorder } from './support/keys.js';
import { startTestServer, type TestServer } from './support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ seed: 123 });
  server.sandbox.stopDispatching();
  await server.control.resetSandbox();
  await server.control.freezeClock();
});
afterAll(async () => {
  await server.close();
});

async function newSite(recorder?: ReturnType<typeof headerRecorder>): Promise<DepositV1Client> {
  const created = await server.control.createSite({ body: {} });
  const { site, api_secret } = created.body.result;
  const signer = createHmacSigner(depositV1SignatureScheme, { key: site.api_key, secret: api_secret }, { now: () => server.sandbox.clock.nowMs() });
  return new DepositV1Client({ baseUrl: server.url, signer, retry: false, ...(recorder === undefined ? {} : { fetch: recorder.fetch }) });
}

describe('listDeposits cursor (property)', () => {
  it('is stable while deposits are added between pages', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 5, max: 25 }),
        fc.array(fc.record({ perPage: fc.integer({ min: 1, max: 7 }), extra: fc.integer({ min: 0, max: 3 }), advance: fc.integer({ min: 0, max: 2 }) }), {
          minLength: 30,
          maxLength: 30,
        }),
        async (n, steps) => {
          run += 1;
          const v1 = await newSite();
          const initial: string[] = [];
          for (let i = 0; i < n; i += 1) {
            initial.push((await v1.createDeposit({ body: { order_id: `R${run}-D${i}`, asset: 'BTC' } })).body.data.uuid);
            if (i % 3 === 0) await server.control.advanceClock({ body: { seconds: 1 } });
          }
          const seen = new Map<string, number>();
          let cursor = '';
          let extras = 0;
          let finished = false;
          for (const step of steps) {
            const { data, meta } = (await v1.listDeposits({ query: { cursor, perPage: step.perPage } })).body;
            expect(meta).toMatchObject({ page: null, total: null, lastPage: null, perPage: step.perPage });
            expect(data.length).toBeLessThanOrEqual(step.perPage);
            for (const d of data) seen.set(d.uuid, (seen.get(d.uuid) ?? 0) + 1);
            const initialLeft = initial.some((uuid) => !seen.has(uuid));
            if (initialLeft) expect(meta.nextCursor).toEqual(expect.any(String));
            expect(meta.hasMore).toBe(meta.nextCursor !== null);
            if (meta.nextCursor === null) {
              finished = true;
              break;
            }
            cursor = meta.nextCursor;
            if (step.advance > 0) await server.control.advanceClock({ body: { seconds: step.advance } });
            for (let e = 0; e < step.extra; e += 1) {
              extras += 1;
              await v1.createDeposit({ body: { order_id: `R${run}-X${extras}`, asset: 'BTC' } });
            }
          }
          // Extras created at the cursor's instant may sort behind it (uuid tie-break) and extend
          // the walk: finish it without creating more.
          for (let drain = 0; !finished && drain < 100; drain += 1) {
            const { data, meta } = (await v1.listDeposits({ query: { cursor, perPage: 7 } })).body;
            for (const d of data) seen.set(d.uuid, (seen.get(d.uuid) ?? 0) + 1);
            if (meta.nextCursor === null) finished = true;
            else cursor = meta.nextCursor;
          }
          expect(finished).toBe(true);
          for (const [uuid, count] of seen) expect(count, uuid).toBe(1);
          for (const uuid of initial) expect(seen.get(uuid), uuid).toBe(1);

          // page wins over cursor: the same as page mode without a cursor.
          const pageMode = (await v1.listDeposits({ query: { page: 1, perPage: 3 } })).body;
          const withCursor = (await v1.listDeposits({ query: { page: 1, perPage: 3, cursor: cursor === '' ? 'ignored' : cursor } })).body;
          expect(withCursor.meta.page).toBe(1);
          expect(withCursor.meta.total).toBe(n + extras);
          expect(withCursor.data.map((d) => d.uuid)).toEqual(pageMode.data.map((d) => d.uuid));
        },
      ),
      { numRuns: 15, seed: 20261121 },
    );
  }, 120_000);
});

describe('createDeposit X-Idempotency-Key', () => {
  it('same key and body → the first response replayed (not the current state); a different body → 409 IDEMPOTENCY_CONFLICT', async () => {
    const recorder = headerRecorder();
    const v1 = await newSite(recorder);
    const headers = { 'X-Idempotency-Key': 'deposit-idem-key-0001' };
    const body = { order_id: 'ORD-IDEM-1', asset: 'BTC', amount: '0.01' };
    const first = await v1.createDeposit({ headers, body });
    expect(first.status).toBe(201);
    expect(recorder.last().get('Idempotent-Replayed')).toBeNull();

    // The deposit moves on; a replay still answers the stored first response.
    await server.control.injectChainTransaction({ body: { network: 'BTC', address: first.body.data.address, amount: '0.01' } });
    const replay = await v1.createDeposit({ headers, body });
    expect(replay.status).toBe(201);
    expect(replay.body.data).toEqual(first.body.data);
    expect(recorder.last().get('Idempotent-Replayed')).toBe('true');
    expect((await v1.getDeposit({ path: { uuid: first.body.data.uuid } })).body.data.status).toBe('confirming');
    expect((await v1.listDeposits({ query: {} })).body.meta.total).toBe(1);

    const conflict = await failure(v1.createDeposit({ headers, body: { ...body, order_id: 'ORD-IDEM-2' } }));
    expect(conflict.status).toBe(409);
    expect(conflict.code).toBe('IDEMPOTENCY_CONFLICT');
    expect((await v1.listDeposits({ query: {} })).body.meta.total).toBe(1);

    // Another key with the same body is idempotency by order_id: the same deposit, as it is now.
    const byOrder = await v1.createDeposit({ headers: { 'X-Idempotency-Key': 'deposit-idem-key-0002' }, body });
    expect(byOrder.body.data.uuid).toBe(first.body.data.uuid);
    expect(byOrder.body.data.status).toBe('confirming');
  });
});

describe('listDeposits after a change', () => {
  it('lists each deposit as getDeposit reads it, after a payment, an expiry and confirmations added by time alone', async () => {
    const v1 = await newSite();
    const paid = (await v1.createDeposit({ body: { order_id: 'LIST-PAID', asset: 'BTC' } })).body.data;
    const idle = (await v1.createDeposit({ body: { order_id: 'LIST-IDLE', asset: 'BTC' } })).body.data;
    // Listed twice per step: the second call answers from what the first one built.
    const listedAsRead = async () => {
      for (let call = 0; call < 2; call += 1) {
        const listed = (await v1.listDeposits({ query: { perPage: 10 } })).body.data;
        for (const uuid of [paid.uuid, idle.uuid]) {
          expect(listed.find((d) => d.uuid === uuid)).toEqual((await v1.getDeposit({ path: { uuid } })).body.data);
        }
      }
      const listed = (await v1.listDeposits({ query: { perPage: 10 } })).body.data;
      return { paid: listed.find((d) => d.uuid === paid.uuid)!, idle: listed.find((d) => d.uuid === idle.uuid)! };
    };

    expect((await listedAsRead()).paid.status).toBe('waiting');
    await server.control.injectChainTransaction({ body: { network: 'BTC', address: paid.address, amount: '0.01' } });
    const detected = (await listedAsRead()).paid;
    expect(detected.transaction).not.toBeNull();

    const secondsToExpiry = Math.ceil((Date.parse(idle.expiresAt) - server.sandbox.clock.nowMs()) / 1000) + 1;
    await server.control.advanceClock({ body: { seconds: secondsToExpiry } });
    const later = await listedAsRead();
    expect(later.idle.status).toBe('expired');
    expect(later.paid.transaction!.confirmations).toBeGreaterThan(detected.transaction!.confirmations);
    // Final now, the deposit no longer changes, but its transaction's confirmations still grow.
    expect(later.paid.isFinal).toBe(true);
    await server.control.advanceClock({ body: { seconds: secondsToExpiry } });
    expect((await listedAsRead()).paid.transaction!.confirmations).toBeGreaterThan(later.paid.transaction!.confirmations);
  });
});
