// Every body that cannot be decoded is the client's error, answered in its family's envelope:
// a corrupt gzip, deflate or br body 400, an unknown Content-Encoding 415, a small body that
// inflates past the limit 413. Never a 5xx. On v3 (a private operation), on v1 (with a wrong
// signature: the body is read before the signature is checked), on the control API, on the
// inbox (which takes any bytes) and on a multipart upload. A well-formed compressed body works.
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { depositV1SignatureScheme } from '../../generated/deposit-v1/client.js';
import { sandboxControlInfo } from '../../generated/sandbox-control/contract-data.js';
import { families as mockFamilies } from '../../mock-server/http/families.js';
import { errorCodeOf, families, type FamilyName } from '../mock-server/support/contract.js';
import { bearer, send } from '../mock-server/support/http.js';
import { fillPath, routeOf } from '../mock-server/support/paths.js';
import { startTestServer, type TestServer } from '../mock-server/support/server.js';

const pathOf = (family: FamilyName, operationId: string, values: Record<string, string> = {}) => fillPath(family, routeOf(family, operationId), values);

let mock: TestServer;
let uploadPath = '';

beforeAll(async () => {
  mock = await startTestServer({ seed: 91 });
  mock.sandbox.stopDispatching();
  const intent = (await mock.v3.createUploadIntent({ body: { purpose: 'identity_verification' } })).body.result.upload_intent;
  uploadPath = pathOf('v3', 'commitUploadIntent', { intent: intent.uuid });
});

afterAll(async () => {
  await mock?.close();
});

interface Target {
  name: string;
  family: FamilyName;
  path: () => string;
  headers: () => Record<string, string>;
}

const v1Sign = depositV1SignatureScheme.headers;
const targets: Target[] = [
  { name: 'v3 sendTestWebhook', family: 'v3', path: () => pathOf('v3', 'sendTestWebhook'), headers: () => ({ ...bearer(mock.token), 'content-type': 'application/json' }) },
  {
    name: 'v1 createDeposit, wrongly signed',
    family: 'v1',
    path: () => pathOf('v1', 'createDeposit'),
    headers: () => ({
      'content-type': 'application/json',
      [v1Sign.key!]: mock.site.apiKey,
      [v1Sign.timestamp]: String(Math.floor(mock.sandbox.clock.nowMs() / 1000)),
      [v1Sign.signature]: 'ab'.repeat(32),
    }),
  },
  { name: 'control advanceClock', family: 'control', path: () => pathOf('control', 'advanceClock'), headers: () => ({ 'content-type': 'application/json' }) },
  { name: 'control inbox', family: 'control', path: () => pathOf('control', 'receiveInboxWebhook'), headers: () => ({ 'content-type': 'application/json' }) },
  {
    name: 'v3 commitUploadIntent (multipart)',
    family: 'v3',
    path: () => uploadPath,
    headers: () => ({ ...bearer(mock.token), 'content-type': 'multipart/form-data; boundary=XyZ' }),
  },
];

/** The family's code for a failure and the status its contract catalog gives that code. */
function expected(family: FamilyName, failure: 'badRequest' | 'unsupportedMediaType' | 'payloadTooLarge'): [number | undefined, string] {
  const code = mockFamilies[family].codes[failure];
  return [families[family].catalog[code]?.status, code];
}

describe.each(targets)('$name', (target) => {
  it.each(['gzip', 'deflate', 'br'])('a corrupt %s body is 400 in the family envelope', async (encoding) => {
    const response = await send(mock.url, target.path(), { method: 'POST', headers: { ...target.headers(), 'content-encoding': encoding }, body: 'this is not compressed at all' });
    expect([response.status, errorCodeOf(response.json)]).toEqual(expected(target.family, 'badRequest'));
    expect(response.status).toBe(400);
  });

  it('an unknown encoding is 415', async () => {
    const response = await send(mock.url, target.path(), { method: 'POST', headers: { ...target.headers(), 'content-encoding': 'zstd' }, body: '{}' });
    expect([response.status, errorCodeOf(response.json)]).toEqual(expected(target.family, 'unsupportedMediaType'));
    expect(response.status).toBe(415);
  });

  it('a small body that inflates past the limit is 413', async () => {
    // 70 MiB of zeros: beyond every family's body limit and the upload ceiling, a few KiB on the wire.
    const bomb = gzipSync(Buffer.alloc(70 * 1024 * 1024));
    const response = await send(mock.url, target.path(), { method: 'POST', headers: { ...target.headers(), 'content-encoding': 'gzip' }, body: bomb });
    expect([response.status, errorCodeOf(response.json)]).toEqual(expected(target.family, 'payloadTooLarge'));
    expect(response.status).toBe(413);
  });
});

it('a well-formed gzip body is decoded and read', async () => {
  const before = mock.sandbox.clock.nowMs();
  await mock.control.freezeClock();
  const body = gzipSync(JSON.stringify({ seconds: 60 }));
  const response = await send(mock.url, pathOf('control', 'advanceClock'), { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body });
  expect(response.status).toBe(200);
  expect(mock.sandbox.clock.nowMs() - before).toBeGreaterThanOrEqual(60_000);
  expect(sandboxControlInfo['x-body-limit-bytes']).toBeGreaterThan(body.length);
});
