// The v1 webhook helpers over real HTTP through the generated DepositV1Client: the site's
// callback_url as its endpoint, the test webhook (one delivery, never retried), resend by
// X-Event-Id (a new delivery, signature recomputed with the site's current secret, scoped to the
// site), the event catalog against the contract's webhooks section, and the egress IPs. Every
// delivery is verified with the generated verifyWebhookSignature on a local receiver.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { DepositV1Client, createHmacSigner, depositV1SignatureScheme, verifyWebhookSignature } from '../../generated/deposit-v1/client.js';
import { webhookValidators } from '../../generated/deposit-v1/validators.js';
import { emitSiteEvent } from '../../mock-server/domain/webhooks/site-endpoint.js';
import { repoRoot } from '../support/contracts.js';
import { useRecordingServer, type Seen } from '../support/recording-server.js';
import { expectContractBody } from './support/contract.js';
import { startTestServer, useFrozenSandbox, type TestServer } from './support/server.js';
import { failure } from './support/failure.js';

const receiver = useRecordingServer(() => ({ status: 200 }));

let server: TestServer;
useFrozenSandbox({ seed: 21 }, (started) => (server = started));
beforeEach(async () => {
  receiver.handler = () => ({ status: 200 });
});

interface SiteUnderTest {
  v1: DepositV1Client;
  apiKey: string;
  webhookSecret: string;
}

async function createSite(body: { callback_url?: string | null; webhook_events?: string[] } = {}): Promise<SiteUnderTest> {
  const created = await server.control.createSite({ body: { callback_url: `${receiver.baseUrl}/hooks`, ...body } });
  const { site, api_secret, webhook_secret } = created.body.result;
  const signer = createHmacSigner(depositV1SignatureScheme, { key: site.api_key, secret: api_secret }, { now: () => server.sandbox.clock.nowMs() });
  return { v1: new DepositV1Client({ baseUrl: server.url, signer, retry: false }), apiKey: site.api_key, webhookSecret: webhook_secret };
}

async function runDue(): Promise<void> {
  await server.control.runDueWebhooks();
}

function header(seen: Seen, name: string): string {
  const value = seen.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : (value ?? '');
}

async function deliveryRecord(id: string) {
  const delivery = await server.sandbox.webhooks.store.getDelivery(id);
  if (delivery === undefined) throw new Error(`no delivery ${id}`);
  return delivery;
}

describe('sendSiteTestWebhook', () => {
  it('queues one signed webhook.test delivery to the callback URL', async () => {
    const site = await createSite();
    const response = await site.v1.sendSiteTestWebhook();
    expect(response.status).toBe(201);
    expectContractBody('v1', 'sendSiteTestWebhook', 201, response.body);
    const sent = response.body.data;
    expect(sent.type).toBe('webhook.test');
    expect(['pending', 'queued']).toContain(sent.status);

    await runDue();
    expect(receiver.seen).toHaveLength(1);
    const [seen] = receiver.seen;
    if (seen === undefined) throw new Error('nothing received');
    expect(seen.method).toBe('POST');
    expect(seen.url).toBe('/hooks');
    expect(verifyWebhookSignature(seen.raw, header(seen, 'X-Signature'), site.webhookSecret)).toBe(true);
    expect(header(seen, 'X-Event-Id')).toBe(sent.eventId);
    expect(header(seen, 'X-Event-Type')).toBe('webhook.test');
    expect(header(seen, 'X-Delivery-Id')).toBe(sent.deliveryId);
    expect(header(seen, 'X-Delivery-Attempt')).toBe('1');
    const body: unknown = JSON.parse(seen.body);
    expect(webhookValidators['webhook.test'](body), JSON.stringify(webhookValidators['webhook.test'].errors)).toBe(true);
    expect(body).toMatchObject({ eventId: sent.eventId, type: 'webhook.test', isFinal: false });
    expect((await deliveryRecord(sent.deliveryId)).status).toBe('delivered');
  });

  it('is never retried when the attempt fails', async () => {
    receiver.handler = () => ({ status: 500 });
    const site = await createSite();
    const sent = (await site.v1.sendSiteTestWebhook()).body.data;
    await runDue();
    expect(await deliveryRecord(sent.deliveryId)).toMatchObject({ status: 'failed', attempts: [{ number: 1, status: 'failed' }], maxAttempts: 1, nextAttemptAt: null });
    // A whole retry schedule later, still the one attempt.
    const schedule = server.sandbox.webhooks.service.machine.scheduleSeconds;
    await server.control.advanceClock({ body: { seconds: schedule.reduce((a, b) => a + b, 0) + 1 } });
    await runDue();
    expect(receiver.seen).toHaveLength(1);
  });

  it('is recorded without being sent when the site has no callback URL', async () => {
    const site = await createSite({ callback_url: null });
    const sent = (await site.v1.sendSiteTestWebhook()).body.data;
    const summary = (await server.control.runDueWebhooks()).body.result;
    expect(summary.attempted).toBe(0);
    expect(receiver.seen).toEqual([]);
    expect(await deliveryRecord(sent.deliveryId)).toMatchObject({ status: sent.status, attempts: [], nextAttemptAt: null });
  });
});

describe('resendWebhookEvent', () => {
  it('queues a new delivery of the logged body, signed with the site\'s current secret', async () => {
    const site = await createSite();
    const sent = (await site.v1.sendSiteTestWebhook()).body.data;
    await runDue();
    const [original] = receiver.seen;

    // The site's webhook secret changes (an operator rotation): the resend must be signed anew.
    const record = server.sandbox.sites.find(site.apiKey);
    if (record === undefined || original === undefined) throw new Error('setup failed');
    record.webhookSecret = 'whsec_rotatedRotatedRotatedRotated01';
    // Changed behind the services' back: mark it as a service would, or a durable store's journal
    // (and its audit, when the suites run on a sqlite: file) misses the rotation.
    server.sandbox.marked?.changed('site', String(record.id));

    const response = await site.v1.resendWebhookEvent({ path: { eventId: sent.eventId } });
    expect(response.status).toBe(201);
    expectContractBody('v1', 'resendWebhookEvent', 201, response.body);
    expect(response.body.data.eventId).toBe(sent.eventId);
    expect(response.body.data.deliveryId).not.toBe(sent.deliveryId);

    await runDue();
    expect(receiver.seen).toHaveLength(2);
    const resent = receiver.seen[1];
    if (resent === undefined) throw new Error('no resend received');
    expect(resent.body).toBe(original.body);
    expect(header(resent, 'X-Event-Id')).toBe(sent.eventId);
    expect(header(resent, 'X-Delivery-Id')).toBe(response.body.data.deliveryId);
    expect(verifyWebhookSignature(resent.raw, header(resent, 'X-Signature'), record.webhookSecret)).toBe(true);
    expect(verifyWebhookSignature(resent.raw, header(resent, 'X-Signature'), site.webhookSecret)).toBe(false);
    expect(header(resent, 'X-Signature')).not.toBe(header(original, 'X-Signature'));
  });

  it('is 404 NOT_FOUND for another site\'s event and for an unknown id', async () => {
    const site = await createSite();
    const sent = (await site.v1.sendSiteTestWebhook()).body.data;
    for (const attempt of [
      server.v1.resendWebhookEvent({ path: { eventId: sent.eventId } }),
      site.v1.resendWebhookEvent({ path: { eventId: '00000000-0000-4000-8000-000000000000' } }),
    ]) {
      const error = await failure(attempt);
      expect(error.status).toBe(404);
      expect(error.code).toBe('NOT_FOUND');
      expectContractBody('v1', 'resendWebhookEvent', 404, error.body);
    }
  });
});

describe('listWebhookEventTypes', () => {
  it('is the contract\'s webhooks section with descriptions and finality, and the site\'s subscription', async () => {
    const contract = parse(readFileSync(join(repoRoot, 'contracts', 'deposit-v1.openapi.yaml'), 'utf8')) as {
      webhooks: Record<string, { post: { description: string; 'x-final': boolean } }>;
    };
    const expected = Object.entries(contract.webhooks).map(([type, item]) => ({ type, description: item.post.description.trim(), isFinal: item.post['x-final'] }));

    const site = await createSite({ webhook_events: ['deposit.paid', 'deposit.expired'] });
    const response = await site.v1.listWebhookEventTypes();
    expectContractBody('v1', 'listWebhookEventTypes', 200, response.body);
    expect(response.body.data.events).toEqual(expected);
    expect(response.body.data.subscribed).toEqual(['deposit.paid', 'deposit.expired']);

    const defaults = (await server.v1.listWebhookEventTypes()).body.data.subscribed;
    expect([...defaults].sort()).toEqual(expected.map((e) => e.type).filter((t) => t.startsWith('deposit.')).sort());
  });
});

describe('listWebhookEgressIps', () => {
  it('lists 127.0.0.1 by default and what the sandbox is configured with', async () => {
    const response = await server.v1.listWebhookEgressIps();
    expectContractBody('v1', 'listWebhookEgressIps', 200, response.body);
    expect(response.body.data.ips).toEqual(['127.0.0.1']);
    const configured = await startTestServer({ seed: 5, webhookEgressIps: ['203.0.113.10', '2001:db8::200e'] });
    try {
      expect((await configured.v1.listWebhookEgressIps()).body.data.ips).toEqual(['203.0.113.10', '2001:db8::200e']);
    } finally {
      await configured.close();
    }
    await expect(startTestServer({ webhookEgressIps: ['not-an-ip'] })).rejects.toThrow(RangeError);
  });
});

describe('deposit events to a site (the emitter the deposit domain uses)', () => {
  it('are delivered when subscribed, as the contract\'s v1 body with isFinal from the catalog', async () => {
    const site = await createSite({ webhook_events: ['deposit.paid'] });
    const record = server.sandbox.sites.find(site.apiKey);
    if (record === undefined) throw new Error('no site');
    const { sandbox } = server;
    const context = { store: sandbox.webhooks.store, service: sandbox.webhooks.service, clock: sandbox.clock, random: sandbox.random };
    const paid = await emitSiteEvent(context, record, { type: 'deposit.paid', data: { deposit: { uuid: 'x' } } });
    const expired = await emitSiteEvent(context, record, { type: 'deposit.expired', data: { deposit: { uuid: 'x' } } });
    expect(paid.deliveries).toHaveLength(1);
    expect(expired.deliveries).toEqual([]);
    await runDue();
    expect(receiver.seen).toHaveLength(1);
    const [seen] = receiver.seen;
    expect(JSON.parse(seen?.body ?? '')).toEqual({ eventId: paid.event.id, type: 'deposit.paid', createdAt: paid.event.createdAt.toISOString(), isFinal: true, data: { deposit: { uuid: 'x' } } });
    expect(verifyWebhookSignature(seen?.raw ?? '', header(seen as Seen, 'X-Signature'), site.webhookSecret)).toBe(true);
  });
});
