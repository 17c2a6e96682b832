// The order operations over real HTTP through the generated clients (strict mode: every answer
// is checked against the contract): lookups by the three ids on both paths, status and history,
// actions, the client's confirm and cancel (POST and DELETE) where the order machine allows them
// and 409 everywhere else, the payment window on the virtual clock, the verification hold,
// forceOrderEvent, and the order.* webhooks in the built-in inbox. Orders are put in place in
// the domain from hand-made drafts; exchange-chain.test.ts creates them through createOrder.
import { describe, expect, it } from 'vitest';
import { ExchangeV3Client } from '../../generated/exchange-v3/client.js';
import { exchangeV3Routes, exchangeV3RoutesBasePath } from '../../generated/exchange-v3/routes.js';
import { orderMachine } from '../../generated/machines.js';
import { failure } from './support/failure.js';
import { useFrozenSandbox, type TestServer } from './support/server.js';
import { force, inbox, onlyEvent, pathsToStates, placeOrder, subscribeInbox, testCause } from './orders-helpers.js';

let server: TestServer;
useFrozenSandbox({ seed: 5150 }, (started) => {
  server = started;
});

const paymentWindowSeconds = orderMachine.timers.payment_window!.seconds!;

async function otherClient(): Promise<ExchangeV3Client> {
  const minted = await server.control.mintToken();
  return new ExchangeV3Client({ baseUrl: server.url, token: minted.body.result.token, retry: false });
}

describe('lookups', () => {
  it('finds an order by id, public_id and tracking_id on both order paths', async () => {
    const order = await placeOrder(server);
    expect(order.public_id).toMatch(/^[A-Z0-9]{10}$/);
    for (const ref of [String(order.id), order.public_id, order.tracking_id, order.tracking_id.toUpperCase()]) {
      expect((await server.v3.getExchangeOrder({ path: { order: ref } })).body.result.order).toEqual(order);
      expect((await server.v3.getOrder({ path: { order: ref } })).body.result.order).toEqual(order);
    }
  });

  it("answers 404 for another client's order and for an unknown one, on every order path", async () => {
    const order = await placeOrder(server);
    const stranger = await otherClient();
    for (const ref of [String(order.id), order.public_id, order.tracking_id]) {
      // One call at a time: each is made when the previous failure was read, so none rejects unawaited.
      for (const call of [
        () => stranger.getExchangeOrder({ path: { order: ref } }),
        () => stranger.getOrder({ path: { order: ref } }),
        () => stranger.getOrderStatus({ path: { order: ref } }),
        () => stranger.getOrderActions({ path: { order: ref } }),
        () => stranger.confirmOrder({ path: { order: ref } }),
        () => stranger.cancelOrder({ path: { order: ref } }),
        () => stranger.deleteOrder({ path: { order: ref } }),
      ]) {
        const error = await failure(call());
        expect([error.status, error.code]).toEqual([404, 'not_found']);
      }
    }
    expect((await failure(server.v3.getOrder({ path: { order: '999999' } }))).code).toBe('not_found');
    // The stranger's attempts changed nothing.
    expect((await server.v3.getOrder({ path: { order: order.public_id } })).body.result.order.status).toBe('awaiting_payment');
  });
});

describe('status and actions', () => {
  it('a new order awaits payment for the payment window, with its creation in the history', async () => {
    const order = await placeOrder(server);
    const expires = new Date(Date.parse(order.created_at) + paymentWindowSeconds * 1000).toISOString();
    expect(order).toMatchObject({ status: 'awaiting_payment', expires_at: expires, completed_at: null, correlation_id: testCause.correlationId });
    expect(order.payment_details.expires_at).toBe(expires);
    const status = (await server.v3.getOrderStatus({ path: { order: order.public_id } })).body.result.status;
    expect(status).toEqual({
      status: 'awaiting_payment',
      is_final: false,
      expires_at: expires,
      history: [{ from: null, to: 'awaiting_payment', event: 'create', at: order.created_at, actor: 'client' }],
    });
  });

  it('lists one action per operation that fires a client event, allowed only while the machine allows it', async () => {
    const order = await placeOrder(server);
    const endpointOf = (operationId: string) => {
      const route = exchangeV3Routes.find((r) => r.operationId === operationId)!;
      return { method: route.method.toUpperCase(), endpoint: `${exchangeV3RoutesBasePath}${route.path.replace('{order}', order.public_id)}` };
    };
    const actions = (await server.v3.getOrderActions({ path: { order: String(order.id) } })).body.result.actions;
    expect(actions).toEqual([
      { action: 'confirm', ...endpointOf('confirmOrder'), allowed: true, reason: null },
      { action: 'cancel', ...endpointOf('cancelOrder'), allowed: true, reason: null },
      { action: 'cancel', ...endpointOf('deleteOrder'), allowed: true, reason: null },
    ]);
    await server.v3.confirmOrder({ path: { order: order.public_id } });
    const after = (await server.v3.getOrderActions({ path: { order: order.public_id } })).body.result.actions;
    expect(after.map((a) => a.allowed)).toEqual([false, false, false]);
    expect(after[0]!.reason).toContain('confirm is not allowed from paid');
    expect(after[1]!.reason).toContain('cancel is not allowed from paid');
  });
});

describe('client events', () => {
  it('confirm marks the order paid; expires_at is null from then on', async () => {
    const order = await placeOrder(server);
    await server.control.advanceClock({ body: { seconds: 60 } });
    const confirmed = await server.v3.confirmOrder({ path: { order: order.tracking_id }, body: { payment_reference: 'a'.repeat(64) } });
    expect(confirmed.status).toBe(200);
    const paid = confirmed.body.result.order;
    expect(paid).toMatchObject({ status: 'paid', expires_at: null, completed_at: null });
    expect(paid.updated_at).not.toBe(order.updated_at);
    const status = (await server.v3.getOrderStatus({ path: { order: order.public_id } })).body.result.status;
    expect(status.history.map((h) => [h.from, h.event, h.to, h.actor])).toEqual([
      [null, 'create', 'awaiting_payment', 'client'],
      ['awaiting_payment', 'confirm', 'paid', 'client'],
    ]);
    expect(status.expires_at).toBeNull();
  });

  it('cancels an unpaid order by POST and by DELETE', async () => {
    const first = await placeOrder(server);
    const second = await placeOrder(server);
    const cancelled = await server.v3.cancelOrder({ path: { order: first.public_id }, body: { reason: 'Changed my mind.' } });
    expect(cancelled.body.result.order).toMatchObject({ status: 'cancelled', expires_at: null, completed_at: null });
    const deleted = await server.v3.deleteOrder({ path: { order: String(second.id) } });
    expect(deleted.body.result.order.status).toBe('cancelled');
    expect((await server.v3.getOrderStatus({ path: { order: first.public_id } })).body.result.status.is_final).toBe(true);
  });

  it('refuses every client operation from every status the machine does not allow it from (409, status unchanged)', async () => {
    const operations = [
      { operationId: 'confirmOrder', call: (ref: string) => server.v3.confirmOrder({ path: { order: ref } }) },
      { operationId: 'cancelOrder', call: (ref: string) => server.v3.cancelOrder({ path: { order: ref } }) },
      { operationId: 'deleteOrder', call: (ref: string) => server.v3.deleteOrder({ path: { order: ref } }) },
    ];
    let refused = 0;
    for (const [state, events] of pathsToStates()) {
      for (const { operationId, call } of operations) {
        const allowed = orderMachine.transitions.some((t) => t.from === state && t.via.includes(operationId));
        if (allowed) continue;
        const order = await placeOrder(server);
        expect(await force(server, order.id, events)).toBe(events.length === 0 ? undefined : state);
        const error = await failure(call(order.public_id));
        expect([error.status, error.code]).toEqual([409, 'invalid_state_transition']);
        expect(error.details.status).toEqual([state]);
        expect(error.details.event?.[0]).toMatch(/is not allowed from/);
        expect((await server.v3.getOrder({ path: { order: order.public_id } })).body.result.order.status).toBe(state);
        refused += 1;
      }
    }
    // Every status but awaiting_payment refuses all three operations.
    expect(refused).toBe((orderMachine.states.length - 1) * operations.length);
  });
});

describe('the payment window', () => {
  it('expires an unpaid order when the window ends (not a second before), with its webhook', async () => {
    await subscribeInbox(server);
    const order = await placeOrder(server);
    await server.control.advanceClock({ body: { seconds: paymentWindowSeconds - 1 } });
    expect((await server.v3.getOrder({ path: { order: order.public_id } })).body.result.order.status).toBe('awaiting_payment');
    expect(await inbox(server, 'order.status_changed')).toHaveLength(0);

    await server.control.advanceClock({ body: { seconds: 1 } });
    expect(await onlyEvent(server, 'order.status_changed')).toMatchObject({
      type: 'order.status_changed',
      resource: { type: 'order', id: order.id },
      request_id: null,
      correlation_id: null,
      idempotency_key: null,
      data: { previous_status: 'awaiting_payment', status: 'expired', order: { id: order.id, status: 'expired', expires_at: null } },
    });
    const status = (await server.v3.getOrderStatus({ path: { order: order.public_id } })).body.result.status;
    expect(status).toMatchObject({ status: 'expired', is_final: true, expires_at: null });
    expect(status.history.at(-1)).toEqual({ from: 'awaiting_payment', to: 'expired', event: 'expire', at: order.expires_at, actor: 'system' });
  });

  it('does not expire a confirmed order', async () => {
    const order = await placeOrder(server);
    await server.v3.confirmOrder({ path: { order: order.public_id } });
    await server.control.advanceClock({ body: { seconds: paymentWindowSeconds * 2 } });
    expect((await server.v3.getOrder({ path: { order: order.public_id } })).body.result.order.status).toBe('paid');
  });
});

describe('verification hold', () => {
  it('holds a paid order that needs a verification, and releases it when the verification is approved', async () => {
    const order = await placeOrder(server, { verificationRequired: { identity: true, card: false } });
    expect(order.verification).toEqual({ required: true, status: null });
    const confirmed = await server.v3.confirmOrder({ path: { order: order.public_id } });
    expect(confirmed.body.result.order.status).toBe('verification_hold');
    const service = server.sandbox.services.orders;
    const record = service.findAny(order.public_id)!;
    service.verificationChanged(record, 'in_review');
    expect((await server.v3.getOrder({ path: { order: order.public_id } })).body.result.order).toMatchObject({ status: 'verification_hold', verification: { required: true, status: 'in_review' } });
    service.verificationChanged(record, 'approved');
    await service.flush();
    const status = (await server.v3.getOrderStatus({ path: { order: order.public_id } })).body.result.status;
    expect(status.history.map((h) => h.event)).toEqual(['create', 'confirm', 'hold_for_verification', 'verification_approved']);
    expect(status.status).toBe('processing');
  });

  it('sends a held order to error when the verification is rejected', async () => {
    const order = await placeOrder(server, { verificationRequired: { identity: false, card: true } });
    await force(server, order.id, ['pay']);
    const service = server.sandbox.services.orders;
    service.verificationChanged(service.findAny(order.public_id)!, 'rejected');
    const read = (await server.v3.getOrder({ path: { order: order.public_id } })).body.result.order;
    expect(read).toMatchObject({ status: 'error', verification: { required: true, status: 'rejected' } });
  });

  it('does not hold an order whose verification was approved before it was paid', async () => {
    const order = await placeOrder(server, { verificationRequired: { identity: true, card: false } });
    const service = server.sandbox.services.orders;
    service.verificationChanged(service.findAny(order.public_id)!, 'approved');
    expect((await server.v3.confirmOrder({ path: { order: order.public_id } })).body.result.order.status).toBe('paid');
  });
});

describe('forceOrderEvent', () => {
  it('overrides guards: process a confirmed order although the exchanger has not seen the payment', async () => {
    const order = await placeOrder(server);
    await server.v3.confirmOrder({ path: { order: order.public_id } });
    const forced = await server.control.forceOrderEvent({ path: { order: order.tracking_id }, body: { event: 'process' } });
    expect(forced.body.result.transition).toEqual({ from: 'paid', event: 'process', to: 'processing' });
    expect(forced.body.result.order).toMatchObject({ id: order.id, status: 'processing' });
    const completed = await server.control.forceOrderEvent({ path: { order: String(order.id) }, body: { event: 'complete' } });
    expect(completed.body.result.order).toMatchObject({ status: 'completed', completed_at: server.sandbox.clock.now().toISOString() });
  });

  it('fires the payment window now with expire', async () => {
    const order = await placeOrder(server);
    const forced = await server.control.forceOrderEvent({ path: { order: order.public_id }, body: { event: 'expire' } });
    expect(forced.body.result.order).toMatchObject({ status: 'expired', expires_at: null });
  });

  it('refuses an event the machine does not allow from the status with its reason, and an unknown order with 404', async () => {
    const order = await placeOrder(server);
    const error = await failure(server.control.forceOrderEvent({ path: { order: order.public_id }, body: { event: 'complete' } }));
    expect([error.status, error.code]).toEqual([409, 'invalid_state_transition']);
    expect(error.details).toEqual({ event: ['complete is not allowed from awaiting_payment (allowed: confirm, pay, pay_short, cancel, expire)'] });
    const missing = await failure(server.control.forceOrderEvent({ path: { order: 'EXNOSUCH00' }, body: { event: 'pay' } }));
    expect([missing.status, missing.code]).toEqual([404, 'not_found']);
  });

  it("reaches any client's order", async () => {
    const stranger = await server.control.mintToken();
    const order = await placeOrder(server, {}, { clientId: String(stranger.body.result.key.client.id) });
    expect(await force(server, order.public_id, ['pay'])).toBe('paid');
  });
});

describe('order webhooks', () => {
  it('order.created and order.status_changed carry the causing request ids', async () => {
    await subscribeInbox(server);
    const order = await placeOrder(server);
    expect(await onlyEvent(server, 'order.created')).toMatchObject({
      type: 'order.created',
      resource: { type: 'order', id: order.id },
      request_id: testCause.requestId,
      correlation_id: testCause.correlationId,
      idempotency_key: testCause.idempotencyKey,
      data: { order },
    });

    const confirmed = await server.v3.confirmOrder({
      path: { order: order.public_id },
      headers: { 'X-Correlation-Id': 'confirm-corr-1', 'Idempotency-Key': 'confirm-key-0001' },
    });
    expect(await onlyEvent(server, 'order.status_changed')).toMatchObject({
      request_id: confirmed.body.meta.request_id,
      correlation_id: 'confirm-corr-1',
      idempotency_key: 'confirm-key-0001',
      data: { previous_status: 'awaiting_payment', status: 'paid', order: confirmed.body.result.order },
    });
    // The event log of the client shows them too.
    const events = (await server.v3.listWebhookEvents()).body.result.events;
    expect(events.map((e) => e.type).sort()).toEqual(['order.created', 'order.status_changed']);
  });

  it('one event per transition, automatic ones included, in the order they happened', async () => {
    await subscribeInbox(server);
    const order = await placeOrder(server, { verificationRequired: { identity: true, card: false } });
    await server.v3.confirmOrder({ path: { order: order.public_id } });
    const changed = (await inbox(server, 'order.status_changed')).map((d) => JSON.parse(d.body).data);
    expect(changed.map((d) => [d.previous_status, d.status, d.order.status])).toEqual([
      ['awaiting_payment', 'paid', 'paid'],
      ['paid', 'verification_hold', 'verification_hold'],
    ]);
  });
});
