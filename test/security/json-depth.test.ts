// A JSON body may nest its arrays and objects only as deep as its family's contract says
// (info.x-json-depth-limit; importSandboxState declares its own). Deeper is the client's error,
// 400 in the family's envelope, before anything is stored: a free-form webhook test payload a
// few thousand levels deep was once stored, after which the client's event list, the inspector
// and the snapshot export all answered 500. A payload as deep as the limit allows is stored and
// shows everywhere, and the exported sandbox loads again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { depositV1SignatureScheme } from '../../generated/deposit-v1/client.js';
import { depositV1Info } from '../../generated/deposit-v1/contract-data.js';
import { exchangeV3Info } from '../../generated/exchange-v3/contract-data.js';
import { sandboxControlInfo } from '../../generated/sandbox-control/contract-data.js';
import { families as mockFamilies } from '../../mock-server/http/families.js';
import { nestsDeeperThan } from '../../generated/runtime/json-depth.js';
import { errorCodeOf, type FamilyName } from '../mock-server/support/contract.js';
import { bearer, send } from '../mock-server/support/http.js';
import { fillPath, routeOf } from '../mock-server/support/paths.js';
import { inboxUrlOf, startTestServer, type TestServer } from '../mock-server/support/server.js';

const pathOf = (family: FamilyName, operationId: string) => fillPath(family, routeOf(family, operationId), {});
/** An array nested `levels` deep: `[[…]]`. */
const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

let mock: TestServer;
beforeAll(async () => {
  mock = await startTestServer({ seed: 92 });
  mock.sandbox.stopDispatching();
});
afterAll(async () => {
  await mock?.close();
});

describe('a body nested deeper than its family allows is 400', () => {
  const v1Sign = depositV1SignatureScheme.headers;
  it.each([
    // The outer object is a level of its own.
    { family: 'v3' as const, operationId: 'sendTestWebhook', limit: exchangeV3Info['x-json-depth-limit'], headers: () => ({ ...bearer(mock.token), 'content-type': 'application/json' }), body: (levels: number) => `{"payload":{"a":${nested(levels - 2)}}}` },
    {
      // Read before the signature is checked, so a wrong one does not hide the 400.
      family: 'v1' as const,
      operationId: 'createDeposit',
      limit: depositV1Info['x-json-depth-limit'],
      headers: () => ({ 'content-type': 'application/json', [v1Sign.key!]: mock.site.apiKey, [v1Sign.timestamp]: String(Math.floor(mock.sandbox.clock.nowMs() / 1000)), [v1Sign.signature]: 'ab'.repeat(32) }),
      body: (levels: number) => `{"order_id":${nested(levels - 1)}}`,
    },
    { family: 'control' as const, operationId: 'advanceClock', limit: sandboxControlInfo['x-json-depth-limit'], headers: () => ({ 'content-type': 'application/json' }), body: (levels: number) => `{"seconds":${nested(levels - 1)}}` },
  ])('$family $operationId', async ({ family, operationId, limit, headers, body }) => {
    const deeper = await send(mock.url, pathOf(family, operationId), { method: 'POST', headers: headers(), body: body(limit + 1) });
    expect([deeper.status, errorCodeOf(deeper.json)]).toEqual([400, mockFamilies[family].codes.badRequest]);
    // At the limit the body is read and judged on its merits (here by its schema), not refused for its depth.
    const atLimit = await send(mock.url, pathOf(family, operationId), { method: 'POST', headers: headers(), body: body(limit) });
    expect(errorCodeOf(atLimit.json)).not.toBe(mockFamilies[family].codes.badRequest);
  });
});

describe('a free-form payload as deep as allowed', () => {
  it('is stored and shows in the event list, the inspector and the export, which loads again; one level deeper stores nothing', async () => {
    const endpoint = (await mock.v3.createWebhookEndpoint({ body: { name: 'inbox', url: inboxUrlOf(mock), events: ['api.test'] } })).body.result.endpoint;
    const limit = exchangeV3Info['x-json-depth-limit'];
    // {"endpoint_id":…,"payload":{"a":[…]}}: the body, the payload and the array's levels.
    const test = (levels: number) =>
      send(mock.url, pathOf('v3', 'sendTestWebhook'), { method: 'POST', headers: { ...bearer(mock.token), 'content-type': 'application/json' }, body: `{"endpoint_id":"${endpoint.id}","payload":{"a":${nested(levels - 2)}}}` });

    expect((await test(limit)).status).toBe(201);
    const refused = await test(limit + 1);
    expect(refused.status).toBe(400);

    const events = (await mock.v3.listWebhookEvents()).body.result;
    expect(JSON.stringify(events)).toContain(nested(limit - 2));
    expect(JSON.stringify(events)).not.toContain(nested(limit - 1));
    expect((await mock.control.getInspectorState()).status).toBe(200);
    const exported = (await mock.control.exportSandboxState()).body.result;
    const loaded = await send(mock.url, pathOf('control', 'importSandboxState'), { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(exported) });
    expect(loaded.status).toBe(200);
    expect(JSON.stringify((await mock.v3.listWebhookEvents()).body.result)).toContain(nested(limit - 2));
  });
});

describe('nestsDeeperThan', () => {
  it('counts the brackets of arrays and objects, not those inside strings', () => {
    expect(nestsDeeperThan(`{"a":${nested(3)}}`, 3)).toBe(true);
    expect(nestsDeeperThan(`{"a":${nested(2)}}`, 3)).toBe(false);
    expect(nestsDeeperThan(JSON.stringify({ a: `\\"${'['.repeat(50)}` }), 3)).toBe(false);
    expect(nestsDeeperThan(JSON.stringify([{ b: '"{{{{{{{{' }, [[[]]]]), 3)).toBe(true);
  });
});
