// A holder and a replica on one PostgreSQL database, behind a round-robin front, are one sandbox
// to their callers: an idempotent request sent many times at once runs once whichever process
// took each copy, and a key's IP allow-list checks the caller's address (X-Forwarded-For from a
// trusted proxy), never the address of the replica that forwarded the request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxControlClient } from '../../generated/sandbox-control/client.js';
import { durableEngines } from '../durable/support/durable-server.js';
import { send } from '../mock-server/support/http.js';
import { startRoundRobinFront, type RoundRobinFront } from './support/round-robin-front.js';
import { replicaSet, v3Client, type ServeProcess } from './support/replica-set.js';

const postgres = durableEngines().find((engine) => engine.name === 'postgres');

describe.runIf(postgres !== undefined)('a holder and a replica behind a round-robin front', () => {
  let replica: ServeProcess;
  let front: RoundRobinFront;

  beforeAll(async () => {
    const replicas = replicaSet(await postgres!.place(), ['--trust-proxy', 'loopback']);
    const holder = await replicas.start();
    replica = await replicas.start();
    expect([holder.asReplica, replica.asReplica]).toEqual([false, true]);
    front = await startRoundRobinFront([holder.url, replica.url]);
  });

  afterAll(async () => {
    await front?.close();
    await postgres?.cleanUp();
  });

  it('make one order of the same idempotent request sent 200 times at once', async () => {
    const v3 = v3Client(front.url);
    const route = (await v3.listRoutes({ query: { 'filter[from]': 'BTC', 'filter[to]': 'USDTTRC20' } })).body.result.routes[0]!;
    const body = { route_id: route.id, amount: route.limits.min_give, email: 'once@example.com', requisites: { to_address: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE' } };
    const answers = await Promise.all(Array.from({ length: 200 }, () => v3.createOrder({ body, headers: { 'Idempotency-Key': 'one-order-of-200' } })));
    // Concurrent duplicates wait for the first (docs/storage.md): each gets its answer, none a conflict.
    expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([201]));
    const ids = new Set(answers.map((answer) => answer.body.result.order.public_id));
    expect(ids.size).toBe(1);
    const listed = await v3.listOrders({ query: { per_page: 100 } });
    expect(listed.body.result.orders.filter((order) => order.email === 'once@example.com').map((order) => order.public_id)).toEqual([...ids]);
  });

  it("check a key's IP allow-list against the caller the front names, not against the replica", async () => {
    const control = new SandboxControlClient({ baseUrl: front.url });
    const { token } = (await control.mintToken({ body: { ip_allowlist: ['203.0.113.7'] } })).body.result;
    const ping = (base: string, caller: string) => send(base, '/api/v3/private/ping', { headers: { Authorization: `Bearer ${token}`, 'X-Forwarded-For': caller } });
    const allowed = async (base: string) => expect((await ping(base, '203.0.113.7')).status).toBe(200);
    const refused = async (base: string) => {
      const answer = await ping(base, '198.51.100.9');
      expect([answer.status, (answer.json as { error: { code: string } }).error.code]).toEqual([403, 'ip_not_allowed']);
    };
    // Through the front, in an order that puts each caller on both processes; then straight to the replica.
    for (const check of [allowed, refused, refused, allowed]) await check(front.url);
    await allowed(replica.url);
    await refused(replica.url);
  });
});
