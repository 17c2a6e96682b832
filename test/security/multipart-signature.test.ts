// A multipart upload (commitUploadIntent) is inside the v3 HMAC and the idempotency fingerprint:
// the signature covers its exact bytes (boundary and file included), so a commit signed over an
// empty body, or over another file, is refused and commits nothing. The fingerprint covers the
// form's parts (field names, file names, types, contents), not its framing: an Idempotency-Key
// reused with another file or another form is a conflict, and the same file in a form built
// again (a new boundary, as every FormData serialisation makes) a replay.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exchangeV3SignatureScheme, type RequestSigner } from '../../generated/exchange-v3/client.js';
import { exchangeV3IdempotencyFailures } from '../../generated/exchange-v3/routes.js';
import { replayedHeader } from '../../mock-server/http/idempotency.js';
import { errorCodeOf } from '../mock-server/support/contract.js';
import { bearer, send } from '../mock-server/support/http.js';
import { mintKey, v3Client, v3Signer, type MintedKey } from '../mock-server/support/keys.js';
import { fillPath, routeOf } from '../mock-server/support/paths.js';
import { startTestServer, type TestServer } from '../mock-server/support/server.js';
import { createIntent, fileBytes, filePart } from '../mock-server/uploads-helpers.js';

let mock: TestServer;

beforeAll(async () => {
  mock = await startTestServer({ seed: 93 });
  mock.sandbox.stopDispatching();
});

afterAll(async () => {
  await mock?.close();
});

const commitPath = (intent: string) => fillPath('v3', routeOf('v3', 'commitUploadIntent'), { intent });

/**
 * A one-file form (and any extra parts) serialised once: the exact bytes sent, and the content
 * type naming its boundary, a new random one on every call.
 */
async function form(bytes: Buffer, name = 'passport.jpg', extra: [string, string | File][] = []): Promise<{ bytes: Uint8Array; contentType: string }> {
  const data = new FormData();
  data.append('file', new File([bytes], name, { type: 'image/jpeg' }));
  for (const [field, value] of extra) data.append(field, value);
  const serialised = new Response(data);
  return { bytes: new Uint8Array(await serialised.arrayBuffer()), contentType: serialised.headers.get('content-type')! };
}

/** POSTs `body` to the commit path, signed (when a signer is given) over `signedBody`. */
async function commit(path: string, token: string, body: { bytes: Uint8Array; contentType: string }, options: { signer?: RequestSigner; signedBody?: Uint8Array; headers?: Record<string, string> } = {}) {
  const headers = new Headers({ ...bearer(token), 'content-type': body.contentType, ...options.headers });
  await options.signer?.({ method: 'POST', url: new URL(mock.url + path), headers, body: options.signedBody ?? body.bytes });
  return send(mock.url, path, { method: 'POST', headers: Object.fromEntries(headers), body: body.bytes });
}

describe('the v3 signature of a multipart upload', () => {
  let key: MintedKey;
  beforeAll(async () => {
    key = await mintKey(mock, { hmac_required: true });
  });

  it('covers the file: a commit signed over an empty body is refused and commits nothing', async () => {
    const client = v3Client(mock, key.token, { signer: v3Signer(mock, key.hmacSecret) });
    const intent = await createIntent(client);
    const response = await commit(commitPath(intent.uuid), key.token, await form(fileBytes('jpeg')), { signer: v3Signer(mock, key.hmacSecret), signedBody: new Uint8Array() });
    expect([response.status, errorCodeOf(response.json)]).toEqual([401, 'invalid_signature']);
    expect((await client.getUploadIntent({ path: { intent: intent.uuid } })).body.result.upload_intent.status).toBe(intent.status);
  });

  it('covers the file: a signature over one file does not carry another', async () => {
    const client = v3Client(mock, key.token, { signer: v3Signer(mock, key.hmacSecret) });
    const intent = await createIntent(client);
    const signed = await form(fileBytes('jpeg', 256));
    const sent = await form(fileBytes('jpeg', 512));
    const response = await commit(commitPath(intent.uuid), key.token, sent, { signer: v3Signer(mock, key.hmacSecret), signedBody: signed.bytes });
    expect([response.status, errorCodeOf(response.json)]).toEqual([401, 'invalid_signature']);
  });

  it('is what the generated client sends: its signed commit is accepted', async () => {
    const client = v3Client(mock, key.token, { signer: v3Signer(mock, key.hmacSecret) });
    const intent = await createIntent(client);
    const committed = await client.commitUploadIntent({ path: { intent: intent.uuid }, body: filePart('photo.jpg', fileBytes('jpeg')) });
    expect(committed.status).toBe(200);
    expect(committed.body.result.upload_intent.status).not.toBe(intent.status);
    expect(exchangeV3SignatureScheme.canonical).toContain('body_sha256');
  });
});

describe('the idempotency fingerprint of a multipart upload', () => {
  const header = routeOf('v3', 'commitUploadIntent').idempotency!.header;
  const conflict = exchangeV3IdempotencyFailures['key-reused'];

  it('replays the same bytes and refuses another file under the same key', async () => {
    const intent = await createIntent(mock.v3);
    const path = commitPath(intent.uuid);
    const headers = { [header]: 'upload-key-0001' };
    const first = await form(fileBytes('jpeg', 300));
    const done = await commit(path, mock.token, first, { headers });
    expect(done.status).toBe(200);

    const again = await commit(path, mock.token, first, { headers });
    expect([again.status, again.headers.get(replayedHeader)]).toEqual([200, 'true']);

    const other = await commit(path, mock.token, await form(fileBytes('jpeg', 301)), { headers });
    expect([other.status, errorCodeOf(other.json)]).toEqual([conflict.status, conflict.code]);
  });

  it('replays the same file in a form built again, with a new boundary', async () => {
    const intent = await createIntent(mock.v3);
    const path = commitPath(intent.uuid);
    const headers = { [header]: 'upload-key-0002' };
    const first = await form(fileBytes('jpeg', 300));
    const rebuilt = await form(fileBytes('jpeg', 300));
    expect(rebuilt.contentType).not.toBe(first.contentType);
    const done = await commit(path, mock.token, first, { headers });
    expect(done.status).toBe(200);

    const again = await commit(path, mock.token, rebuilt, { headers });
    expect([again.status, again.headers.get(replayedHeader)]).toEqual([200, 'true']);
    const resultOf = (response: { json: unknown }) => (response.json as { result: unknown }).result;
    expect(resultOf(again)).toEqual(resultOf(done));
  });

  it('refuses the same key for the file under another name, or with another part added', async () => {
    const intent = await createIntent(mock.v3);
    const path = commitPath(intent.uuid);
    const headers = { [header]: 'upload-key-0003' };
    const bytes = fileBytes('jpeg', 300);
    expect((await commit(path, mock.token, await form(bytes), { headers })).status).toBe(200);
    const renamed = await commit(path, mock.token, await form(bytes, 'selfie.jpg'), { headers });
    const withField = await commit(path, mock.token, await form(bytes, 'passport.jpg', [['note', 'x']]), { headers });
    // A second file part is past the one file the parser reads: it is not read, but it is there.
    const twoFiles = await commit(path, mock.token, await form(bytes, 'passport.jpg', [['file', new File([bytes], 'passport.jpg', { type: 'image/jpeg' })]]), { headers });
    for (const reuse of [renamed, withField, twoFiles]) expect([reuse.status, errorCodeOf(reuse.json)]).toEqual([conflict.status, conflict.code]);
  });
});
