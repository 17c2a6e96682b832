// Upload intents over real HTTP through the generated ExchangeV3Client (strict mode): the
// defaults and limits, the multipart commit and each way a file is refused (size, extension,
// declared type, content, body limit, form), the upload-intent machine (pending → committed,
// expiry on the virtual clock, no second commit) and isolation between clients.
import { describe, expect, it } from 'vitest';
import { uploadIntentMachine } from '../../generated/machines.js';
import { failure } from './support/failure.js';
import { mintKey, v3Client } from './support/keys.js';
import { useFrozenSandbox, type TestServer } from './support/server.js';
import { createIntent, fileBytes, filePart, sha256 } from './uploads-helpers.js';

let server: TestServer;
useFrozenSandbox({ seed: 505 }, (started) => {
  server = started;
});

const ttlSeconds = uploadIntentMachine.timers.ttl?.seconds ?? 0;

async function commit(uuid: string, name: string, bytes: Buffer, type = 'image/jpeg', extra: Record<string, string> = {}) {
  return server.v3.commitUploadIntent({ path: { intent: uuid }, body: filePart(name, bytes, type, extra) });
}

async function statusOf(uuid: string) {
  return (await server.v3.getUploadIntent({ path: { intent: uuid } })).body.result.upload_intent.status;
}

describe('creating an upload intent', () => {
  it('is pending with the documented defaults and expires an hour (the machine ttl) after creation', async () => {
    const created = await server.v3.createUploadIntent({ body: { purpose: 'identity_verification', field_key: 'passport' } });
    expect(created.status).toBe(201);
    const intent = created.body.result.upload_intent;
    expect(intent).toMatchObject({
      purpose: 'identity_verification',
      status: 'pending',
      resource_type: null,
      resource_id: null,
      field_key: 'passport',
      allowed_extensions: ['jpg', 'jpeg', 'png', 'pdf'],
      max_bytes: 10_485_760,
      file: null,
      committed_at: null,
      consumed_at: null,
    });
    expect(Date.parse(intent.expires_at) - server.sandbox.clock.nowMs()).toBe(ttlSeconds * 1000);
    expect((await server.v3.getUploadIntent({ path: { intent: intent.uuid } })).body.result.upload_intent).toEqual(intent);
  });

  it('keeps the limits the client asks for, within the contract bounds', async () => {
    const intent = await createIntent(server.v3, { allowed_extensions: ['png'], max_bytes: 1024 });
    expect(intent).toMatchObject({ allowed_extensions: ['png'], max_bytes: 1024 });
    const tooBig = await failure(server.v3.createUploadIntent({ body: { purpose: 'identity_verification', max_bytes: 20_971_521 } }));
    expect([tooBig.status, tooBig.code, Object.keys(tooBig.details)]).toEqual([422, 'validation_error', ['max_bytes']]);
  });

  it('refuses a resource the client does not have', async () => {
    const verification = await failure(
      server.v3.createUploadIntent({ body: { purpose: 'identity_verification', resource_type: 'verification', resource_id: '3f9a2c1e-7b4d-4e8a-9c6f-1a2b3c4d5e6f', field_key: 'selfie' } }),
    );
    expect([verification.status, Object.keys(verification.details)]).toEqual([422, ['resource_id']]);
    const order = await failure(server.v3.createUploadIntent({ body: { purpose: 'identity_verification', resource_type: 'order', resource_id: '999' } }));
    expect([order.status, Object.keys(order.details)]).toEqual([422, ['resource_id']]);
  });
});

describe('committing a file', () => {
  it('commits a file within the limits, keeping its name, size, detected type and digest', async () => {
    const intent = await createIntent(server.v3);
    const bytes = fileBytes('png', 4096);
    const committed = await commit(intent.uuid, 'Passport.PNG', bytes, 'application/octet-stream');
    expect(committed.status).toBe(200);
    const after = committed.body.result.upload_intent;
    expect(after).toMatchObject({ status: 'committed', committed_at: server.sandbox.clock.now().toISOString(), consumed_at: null });
    expect(after.file).toEqual({ name: 'Passport.PNG', size: 4096, content_type: 'image/png', sha256: sha256(bytes) });
  });

  it('accepts a file of exactly max_bytes and refuses one byte more, leaving the intent pending', async () => {
    const over = await createIntent(server.v3, { max_bytes: 1000 });
    const refused = await failure(commit(over.uuid, 'scan.pdf', fileBytes('pdf', 1001), 'application/pdf'));
    expect([refused.status, refused.code, Object.keys(refused.details)]).toEqual([422, 'validation_error', ['file']]);
    expect(refused.details.file!.join()).toContain('1001 bytes');
    expect(await statusOf(over.uuid)).toBe('pending');
    expect((await commit(over.uuid, 'scan.pdf', fileBytes('pdf', 1000), 'application/pdf')).body.result.upload_intent.file?.size).toBe(1000);
  });

  it.each([
    ['an extension not allowed', 'notes.txt', fileBytes('jpeg'), 'image/jpeg', 'extension .txt'],
    ['no extension', 'passport', fileBytes('jpeg'), 'image/jpeg', 'extension (none)'],
    ['a declared content type not accepted', 'passport.jpg', fileBytes('jpeg'), 'text/plain', 'content type text/plain'],
    ['content that does not match the extension', 'passport.png', fileBytes('jpeg'), 'image/png', 'is not image/png'],
    ['an empty file', 'passport.jpg', Buffer.alloc(0), 'image/jpeg', 'is empty'],
  ])('refuses %s with 422 details.file, leaving the intent pending', async (_case, name, bytes, type, message) => {
    const intent = await createIntent(server.v3);
    const refused = await failure(commit(intent.uuid, name, bytes, type));
    expect([refused.status, refused.code, Object.keys(refused.details)]).toEqual([422, 'validation_error', ['file']]);
    expect(refused.details.file!.join(' | ')).toContain(message);
    expect(await statusOf(intent.uuid)).toBe('pending');
  });

  it('refuses a form without the file part, or with other parts, naming each part', async () => {
    const intent = await createIntent(server.v3);
    // A form without the typed `file` part: the mock must name what is wrong.
    const missing = await failure(server.v3.commitUploadIntent({ path: { intent: intent.uuid }, body: { document: 'not a file' } as never }));
    expect([missing.status, missing.details]).toEqual([422, { document: ['is not allowed'], file: ['is required'] }]);
    const extra = await failure(commit(intent.uuid, 'passport.jpg', fileBytes('jpeg'), 'image/jpeg', { note: 'hello' }));
    expect([extra.status, extra.details]).toEqual([422, { note: ['is not allowed'] }]);
    expect(await statusOf(intent.uuid)).toBe('pending');
  });

  it('answers 415 to a body that is not multipart/form-data', async () => {
    const intent = await createIntent(server.v3);
    const response = await fetch(`${server.url}/api/v3/private/files/upload-intents/${intent.uuid}/commit`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ file: 'aGVsbG8=' }),
    });
    expect(response.status).toBe(415);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('unsupported_media_type');
  });

  it('answers 400 to a form cut off inside its file part, and goes on serving', async () => {
    const intent = await createIntent(server.v3);
    const cutOff = '--XX\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\nabc';
    for (const name of ['file', 'other']) {
      const response = await fetch(`${server.url}/api/v3/private/files/upload-intents/${intent.uuid}/commit`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.token}`, 'content-type': 'multipart/form-data; boundary=XX' },
        body: cutOff.replace('name="file"', `name="${name}"`),
      });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('bad_request');
    }
    expect(await statusOf(intent.uuid)).toBe('pending');
  });

  it('answers 413 to a file beyond the server limit (the largest max_bytes)', async () => {
    const intent = await createIntent(server.v3, { max_bytes: 20_971_520 });
    const refused = await failure(commit(intent.uuid, 'huge.pdf', fileBytes('pdf', 20_971_521), 'application/pdf'));
    expect([refused.status, refused.code]).toEqual([413, 'payload_too_large']);
    expect(await statusOf(intent.uuid)).toBe('pending');
  });

  it('refuses a second commit with 409 invalid_state_transition and keeps the first file', async () => {
    const intent = await createIntent(server.v3);
    const first = (await commit(intent.uuid, 'a.jpg', fileBytes('jpeg', 300))).body.result.upload_intent;
    const again = await failure(commit(intent.uuid, 'b.jpg', fileBytes('jpeg', 400)));
    expect([again.status, again.code, again.details]).toEqual([409, 'invalid_state_transition', { status: ['committed'] }]);
    expect((await server.v3.getUploadIntent({ path: { intent: intent.uuid } })).body.result.upload_intent).toEqual(first);
  });
});

describe('expiry on the virtual clock', () => {
  it('expires a pending intent at expires_at; a commit then gives 409', async () => {
    const intent = await createIntent(server.v3);
    await server.control.advanceClock({ body: { seconds: ttlSeconds - 1 } });
    expect(await statusOf(intent.uuid)).toBe('pending');
    await server.control.advanceClock({ body: { seconds: 1 } });
    expect(await statusOf(intent.uuid)).toBe('expired');
    const late = await failure(commit(intent.uuid, 'passport.jpg', fileBytes('jpeg')));
    expect([late.status, late.code, late.details]).toEqual([409, 'invalid_state_transition', { status: ['expired'] }]);
  });

  it('expires a committed intent no verification used, counted from creation', async () => {
    const intent = await createIntent(server.v3);
    await server.control.advanceClock({ body: { seconds: ttlSeconds / 2 } });
    await commit(intent.uuid, 'passport.jpg', fileBytes('jpeg'));
    await server.control.advanceClock({ body: { seconds: ttlSeconds / 2 } });
    const expired = (await server.v3.getUploadIntent({ path: { intent: intent.uuid } })).body.result.upload_intent;
    expect(expired).toMatchObject({ status: 'expired', expires_at: intent.expires_at });
    expect(expired.file).not.toBeNull();
  });
});

describe('isolation', () => {
  it("answers 404 for another client's intent, to reads and commits", async () => {
    const intent = await createIntent(server.v3);
    const other = v3Client(server, (await mintKey(server)).token);
    expect((await failure(other.getUploadIntent({ path: { intent: intent.uuid } }))).status).toBe(404);
    expect((await failure(other.commitUploadIntent({ path: { intent: intent.uuid }, body: filePart('a.jpg', fileBytes('jpeg')) }))).status).toBe(404);
    expect(await statusOf(intent.uuid)).toBe('pending');
  });
});
