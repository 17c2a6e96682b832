// Idempotency across kill -9. An acknowledged answer's record is kept: the same request with its
// key after the restart is answered from it (Idempotent-Replayed, the same order), not run again.
// A request whose process died while it ran leaves its key reserved in the store; the next holder
// gives that reservation up before it answers anything, so the client's retry runs at once rather
// than wait for its lease to run out on the virtual clock (never, on a frozen clock).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { requestFingerprint } from '../../generated/runtime/request-fingerprint.js';
import { SandboxControlClient } from '../../generated/sandbox-control/client.js';
import { keyCallerId } from '../../mock-server/domain/accounts/caller-ids.js';
import { openStore } from '../../mock-server/store/open-store.js';
import { binRunner } from '../support/bin-process.js';
import { durableEngines } from './support/durable-server.js';
import { serve } from './support/serve-process.js';

const run = binRunner(mkdtempSync(join(tmpdir(), 'exchange-api-kit-idempotency-')));

describe.each(durableEngines())('idempotency after kill -9 on the $name engine', (engine) => {
  afterAll(() => engine.cleanUp());

  it('replays an acknowledged answer, and runs the retry of a request that died with its process', async () => {
    const spec = await engine.place();
    const first = await serve(run, spec, '--seed', '13');
    // Frozen: a pending reservation's lease (on the virtual clock) never runs out by itself.
    const frozenAt = Date.parse((await new SandboxControlClient({ baseUrl: first.url, retry: false }).freezeClock()).body.result.now);
    const route = (await first.v3.listRoutes({ query: { 'filter[from]': 'BTC', 'filter[to]': 'USDTTRC20' } })).body.result.routes[0]!;
    const body = { route_id: route.id, amount: route.limits.min_give, email: 'retry@example.com', requisites: { to_address: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE' } };
    const acked = await first.v3.createOrder({ body, headers: { 'Idempotency-Key': 'acked-before-kill-01' } });
    first.kill();
    await first.exit;

    // What a process killed while it ran createOrder with this key leaves: the key reserved, no answer.
    const store = await openStore(spec);
    const fingerprint = requestFingerprint('POST', '/api/v3/private/exchange/orders', { kind: 'json', value: body });
    const died = { caller: keyCallerId({ id: 1 }), key: 'died-while-running-01' };
    expect(await store.idempotency.reserve(died, fingerprint, frozenAt, frozenAt + 86_400_000, { maxPerCaller: 1000, pendingLeaseMs: 60_000 })).toEqual({ kind: 'reserved' });
    await store.close();

    const second = await serve(run, spec);
    const replayed = await second.v3.createOrder({ body, headers: { 'Idempotency-Key': 'acked-before-kill-01' } });
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body.result.order.public_id).toBe(acked.body.result.order.public_id);
    const retried = await second.v3.createOrder({ body, headers: { 'Idempotency-Key': 'died-while-running-01' } });
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(retried.body.result.order.public_id).not.toBe(acked.body.result.order.public_id);
    second.kill('SIGTERM');
    await second.exit;
  });
});
