// A body of many bad items costs the mock about as much as reading it, not the square of its
// length: ajv's validators gathered each referenced item's errors by copying all earlier ones, and
// checked the uniqueness of a referenced string enum's items pair by pair, so one tenant's
// 240 KB list held every other tenant for minutes. The answer names at most the first
// validationDetailFieldLimit fields. The time limits below are those quadratic figures' margin
// (below), not a speed this suite measures.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validationDetailFieldLimit } from '../../generated/runtime/router-runtime.js';
import { bearer, send } from '../mock-server/support/http.js';
import { startTestServer, type TestServer } from '../mock-server/support/server.js';

// Within each family's body limit: 60,000 control entries (240 KB) took 145 s; 120,000 short
// event types (800 KB) about 50 s.
const controlItems = 60_000;
const eventTypes = 120_000;
const quadraticMargin = 30_000;

describe('a body of many bad items', () => {
  let mock: TestServer;
  beforeAll(async () => {
    mock = await startTestServer({ seed: 7 });
  });
  afterAll(async () => {
    await mock?.close();
  });

  function detailsOf(response: { status: number; json: unknown }): Record<string, string[]> {
    expect(response.status).toBe(422);
    return (response.json as { error: { details: Record<string, string[]> } }).error.details;
  }

  it('gets the first fields of a v3 list of unknown, distinct webhook event types', async () => {
    const body = JSON.stringify({ name: 'many', url: 'https://hooks.acme.test/many', events: Array.from({ length: eventTypes }, (_, i) => i.toString(36)) });
    const response = await send(mock.url, '/api/v3/private/webhooks', { method: 'POST', headers: { ...bearer(mock.token), 'content-type': 'application/json' }, body });
    const fields = Object.keys(detailsOf(response));
    expect(fields).toHaveLength(validationDetailFieldLimit);
    expect(fields.slice(0, 2)).toEqual(['events.0', 'events.1']);
    // The next caller is answered as usual.
    expect((await send(mock.url, '/api/v3/private/ping', { headers: bearer(mock.token) })).status).toBe(200);
  }, quadraticMargin);

  it('gets the first fields of a control list whose every entry fails each of its choices', async () => {
    const body = JSON.stringify({ scopes: ['read'], ip_allowlist: Array.from({ length: controlItems }, () => 'x') });
    const response = await send(mock.url, '/__mock/tokens', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const details = detailsOf(response);
    expect(Object.keys(details)).toHaveLength(validationDetailFieldLimit);
    expect(details['ip_allowlist.0']).toHaveLength(1);
  }, quadraticMargin);

  it('still refuses a repeated event type, and takes distinct ones', async () => {
    const refused = await send(mock.url, '/api/v3/private/webhooks', {
      method: 'POST',
      headers: { ...bearer(mock.token), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'twice', url: 'https://hooks.acme.test/twice', events: ['order.created', 'order.status_changed', 'order.created'] }),
    });
    expect(Object.values(detailsOf(refused)).flat().join(' ')).toMatch(/duplicate items/);
    const taken = await send(mock.url, '/api/v3/private/webhooks', {
      method: 'POST',
      headers: { ...bearer(mock.token), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'once', url: 'https://hooks.acme.test/once', events: ['order.created', 'order.status_changed'] }),
    });
    expect(taken.status).toBe(201);
  });
});
