// The control API's listInspectorRecords over real HTTP (strict mode): each kind of record searched
// by any value it shows, filtered by a status of its machine or contract, paged past the first 50;
// webhook deliveries with their event's resource, and those never sent (a v1 site without a
// callback URL) labelled, left out by default and counted, their events labelled too; upload
// intents and verifications of every client with their owner.
import { describe, expect, it } from 'vitest';
import { depositMachine } from '../../generated/machines.js';
import type { ListInspectorRecordsPathParams, ListInspectorRecordsQuery } from '../../generated/sandbox-control/types.js';
import { placeOrder } from './orders-helpers.js';
import { expectContractBody } from './support/contract.js';
import { failure } from './support/failure.js';
import { inboxUrlOf, useFrozenSandbox, type TestServer } from './support/server.js';
import { newSite } from './support/sites.js';
import { uploaded, createIntent } from './uploads-helpers.js';

let server: TestServer;
useFrozenSandbox({ seed: 2207 }, (started) => {
  server = started;
});

async function records(kind: ListInspectorRecordsPathParams['kind'], query: ListInspectorRecordsQuery = {}) {
  const response = await server.control.listInspectorRecords({ path: { kind }, query });
  expectContractBody('control', 'listInspectorRecords', response.status, response.body);
  return response.body.result;
}

const siteClient = (callbackUrl: string | null) => newSite(server, { callback_url: callbackUrl });

const idsOf = (items: readonly Record<string, unknown>[], field = 'uuid') => items.map((item) => item[field]);

describe('paging', () => {
  it('pages past the first 50, newest first, with the total on every page', async () => {
    const { v1 } = await siteClient(null);
    const made: string[] = [];
    for (let i = 0; i < 61; i += 1) {
      made.push((await v1.createDeposit({ body: { order_id: `PAGE-${i}`, asset: 'USDT_TRON', amount: '1.00' } })).body.data.uuid);
      if (i % 20 === 0) await server.control.advanceClock({ body: { seconds: 1 } });
    }
    const first = await records('deposits');
    expect([first.page, first.per_page, first.total, first.items.length]).toEqual([1, 50, 61, 50]);
    const second = await records('deposits', { page: 2 });
    expect([second.page, second.total, second.items.length]).toEqual([2, 61, 11]);
    const shown = [...first.items, ...second.items];
    expect(new Set(idsOf(shown))).toEqual(new Set(made));
    const created = shown.map((d) => Date.parse(String(d.createdAt)));
    expect(created).toEqual([...created].sort((a, b) => b - a));
    expect((await records('deposits', { page: 3 })).items).toEqual([]);
    expect(idsOf((await records('deposits', { page: 7, per_page: 10 })).items)).toEqual(idsOf(shown.slice(60)));
  });
});

describe('search and filter', () => {
  it('finds records by any value they show, ignoring case', async () => {
    const { v1 } = await siteClient(null);
    const wanted = (await v1.createDeposit({ body: { order_id: 'Needle-7', asset: 'USDT_TRON', amount: '2.00' } })).body.data;
    await v1.createDeposit({ body: { order_id: 'HAY-1', asset: 'USDT_TRON', amount: '3.00' } });
    expect(idsOf((await records('deposits', { q: 'needle-7' })).items)).toEqual([wanted.uuid]);
    expect(idsOf((await records('deposits', { q: wanted.address })).items)).toEqual([wanted.uuid]);
    expect(await records('deposits', { q: 'no such text' })).toMatchObject({ items: [], total: 0 });
    // Field names are not values: every deposit has an `orderId`, none has it as a value.
    expect((await records('deposits', { q: 'orderId' })).total).toBe(0);
  });

  it("keeps the records in one status of the kind's machine, and refuses a status the kind has not", async () => {
    const waiting = await placeOrder(server);
    const paid = await placeOrder(server);
    await server.control.forceOrderEvent({ path: { order: String(paid.id) }, body: { event: 'pay' } });
    expect(idsOf((await records('orders', { status: 'paid' })).items, 'id')).toEqual([paid.id]);
    expect(idsOf((await records('orders', { status: 'awaiting_payment' })).items, 'id')).toEqual([waiting.id]);

    const error = await failure(server.control.listInspectorRecords({ path: { kind: 'deposits' }, query: { status: 'awaiting_payment' } }));
    expect([error.status, error.code]).toEqual([422, 'validation_error']);
    expect(error.details.status).toEqual([`must be one of: ${depositMachine.states.join(', ')}`]);
  });

  it('combines a search with a status filter and pages what they keep', async () => {
    const { v1 } = await siteClient(null);
    for (let i = 0; i < 3; i += 1) await v1.createDeposit({ body: { order_id: `MIX-${i}`, asset: 'USDT_TRON', amount: '1.00', lifetime: 900 } });
    await v1.createDeposit({ body: { order_id: 'OTHER-1', asset: 'USDT_TRON', amount: '1.00' } });
    await server.control.advanceClock({ body: { seconds: 901 } });
    const page = await records('deposits', { q: 'mix-', status: 'expired', per_page: 2 });
    expect([page.total, page.items.length]).toEqual([3, 2]);
    expect((await records('deposits', { q: 'mix-', status: 'expired', per_page: 2, page: 2 })).items).toHaveLength(1);
  });
});

describe('webhook deliveries', () => {
  it("show their event's resource", async () => {
    const inbox = inboxUrlOf(server);
    await server.v3.createWebhookEndpoint({ body: { name: 'inbox', url: inbox, events: ['order.status_changed'] } });
    const order = await placeOrder(server);
    await server.control.forceOrderEvent({ path: { order: String(order.id) }, body: { event: 'pay' } });
    const found = await records('webhook_deliveries', { q: 'order.status_changed' });
    expect(found.items).toHaveLength(1);
    expect(found.items[0]).toMatchObject({ resource: { type: 'order', id: order.id }, not_sent: null, owner: String(server.sandbox.defaultKey.client.id) });
  });

  it('to a site without a callback URL are labelled, left out by default and counted, and listed when asked for', async () => {
    const unsent = (await (await siteClient(null)).v1.sendSiteTestWebhook()).body.data;
    const sent = (await (await siteClient(inboxUrlOf(server))).v1.sendSiteTestWebhook()).body.data;

    const listed = await records('webhook_deliveries');
    expect(idsOf(listed.items, 'id')).toEqual([sent.deliveryId]);
    expect(listed.not_sent_hidden).toBe(1);

    const only = await records('webhook_deliveries', { not_sent: 'only' });
    expect(only.items).toMatchObject([{ id: unsent.deliveryId, status: 'pending', not_sent: 'no_callback_url', endpoint: { url: '' } }]);
    expect(only.not_sent_hidden).toBe(0);
    expect(idsOf((await records('webhook_deliveries', { not_sent: 'include' })).items, 'id')).toEqual([sent.deliveryId, unsent.deliveryId]);
    // The snapshot shows every delivery, with the label.
    const snapshot = (await server.control.getInspectorState()).body.result;
    expect(snapshot.webhook_deliveries.find((d) => d.id === unsent.deliveryId)).toMatchObject({ not_sent: 'no_callback_url' });
    // Their event is shown as never sent too (each of its deliveries is), and stays listed.
    const events = await records('webhook_events');
    expect(events.items.map((e) => [e.id, e.not_sent])).toEqual([
      [sent.eventId, null],
      [unsent.eventId, 'no_callback_url'],
    ]);
    // Other kinds have no unsent records.
    expect(await records('deposits', { not_sent: 'only' })).toMatchObject({ items: [], total: 0 });
  });
});

describe('upload intents and verifications', () => {
  it("lists every client's upload intents and verifications as v3 presents them, with their owner", async () => {
    const pending = await createIntent(server.v3);
    const passport = await uploaded(server.v3, { purpose: 'identity_verification', field_key: 'passport' });
    const selfie = await uploaded(server.v3, { purpose: 'identity_verification', field_key: 'selfie' });
    const owner = String(server.sandbox.defaultKey.client.id);

    const intents = await records('upload_intents');
    expect(idsOf(intents.items)).toEqual([selfie.uuid, passport.uuid, pending.uuid]);
    expect(intents.items[2]).toEqual({ ...pending, owner });
    expect(idsOf((await records('upload_intents', { status: 'committed' })).items)).toEqual([selfie.uuid, passport.uuid]);

    const verification = (
      await server.v3.createIdentityVerification({ body: { documents: [{ upload_intent: passport.uuid, kind: 'passport' }, { upload_intent: selfie.uuid, kind: 'selfie' }] } })
    ).body.result.verification;
    const listed = await records('verifications', { q: verification.id });
    expect(listed.items).toEqual([{ ...verification, owner }]);
    expect(idsOf((await records('upload_intents', { status: 'consumed' })).items)).toEqual([selfie.uuid, passport.uuid]);

    const snapshot = (await server.control.getInspectorState()).body.result;
    expect(snapshot.counts).toMatchObject({ upload_intents: 3, verifications: 1 });
  });
});
