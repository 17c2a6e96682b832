// The files part of a sandbox snapshot over real HTTP: upload intents (committed, consumed,
// pending) and verifications (approved, waiting for a document) survive GET /__mock/state → JSON →
// PUT into a fresh mock exactly; after the load the mock goes on as the original would (the same
// next intent id and uuid, the same next verification id, expiry on the advanced clock); records
// of an unknown client, in a status their machine lacks or naming an unknown upload are refused
// with 422 naming the field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadIntent, Verification } from '../../generated/exchange-v3/types.js';
import type { SandboxState } from '../../generated/sandbox-control/types.js';
import { startTestServer, type TestServer } from '../mock-server/support/server.js';
import { createIntent, uploaded } from '../mock-server/uploads-helpers.js';
import { expectRefusedUntouched, exportState, loadState } from './support/state-documents.js';

let source: TestServer;
let target: TestServer;
let exported: SandboxState;
let openIntent: UploadIntent;
let approved: Verification;
let waiting: Verification;

async function identity(server: TestServer, kinds: readonly ('passport' | 'selfie')[]): Promise<Verification> {
  const documents = [];
  for (const kind of kinds) documents.push({ upload_intent: (await uploaded(server.v3, { purpose: 'identity_verification', field_key: kind })).uuid, kind });
  return (await server.v3.createIdentityVerification({ body: { documents } })).body.result.verification;
}

const intentOn = async (server: TestServer, uuid: string) => (await server.v3.getUploadIntent({ path: { intent: uuid } })).body.result.upload_intent;
const verificationOn = async (server: TestServer, id: string) => (await server.v3.getIdentityVerification({ path: { verification: id } })).body.result.verification;

beforeAll(async () => {
  [source, target] = await Promise.all([startTestServer({ seed: 43 }), startTestServer({ seed: 8 })]);
  for (const server of [source, target]) server.sandbox.stopDispatching();
  await source.control.freezeClock();
  approved = await identity(source, ['passport', 'selfie']);
  await source.control.reviewVerification({ path: { verification: approved.id }, body: { decision: 'approve' } });
  waiting = await identity(source, ['passport']);
  openIntent = await createIntent(source.v3);
  exported = JSON.parse(JSON.stringify(await exportState(source))) as SandboxState;
  await loadState(target, exported);
});

afterAll(async () => {
  await Promise.all([source?.close(), target?.close()]);
});

describe('the files part of a snapshot', () => {
  it('holds every record, and a loaded mock exports the same part', async () => {
    const { files } = exported;
    expect(files.uploads.map((u) => u.status)).toEqual(['consumed', 'consumed', 'consumed', 'pending']);
    expect(files.uploads.every((u) => u.file === null || /^[0-9a-f]{64}$/.test(u.file.sha256))).toBe(true);
    expect(files.verifications.map((v) => [v.id, v.status])).toEqual([[approved.id, 'approved'], [waiting.id, 'pending']]);
    expect((await exportState(target)).files).toEqual(files);
  });

  it('shows each intent and verification as the original does', async () => {
    for (const { uuid } of exported.files.uploads) expect(await intentOn(target, uuid)).toEqual(await intentOn(source, uuid));
    for (const { id } of [approved, waiting]) expect(await verificationOn(target, id)).toEqual(await verificationOn(source, id));
  });

  it('draws the next intent and verification as the original does', async () => {
    const [a, b] = await Promise.all([createIntent(source.v3), createIntent(target.v3)]);
    expect(b).toEqual(a);
    expect(b.id).toBe(openIntent.id + 1);
    const [va, vb] = await Promise.all([identity(source, ['passport', 'selfie']), identity(target, ['passport', 'selfie'])]);
    expect(vb).toEqual(va);
  });

  it('expires the restored intent and the waiting verification when the clock reaches their expiry', async () => {
    await target.control.advanceClock({ body: { seconds: 3600 } });
    expect((await intentOn(target, openIntent.uuid)).status).toBe('expired');
    await target.control.advanceClock({ body: { seconds: 7 * 24 * 3600 } });
    expect(await verificationOn(target, waiting.id)).toMatchObject({ status: 'expired', updated_at: waiting.expires_at });
  });
});

describe('a files part that does not fit', () => {
  // A mock of its own, loaded and then never called with a key: a refused load still clears the
  // default key's last use (the new generation adopts the key before the parts are checked).
  let loaded: TestServer;
  beforeAll(async () => {
    loaded = await startTestServer({ seed: 9 });
    loaded.sandbox.stopDispatching();
    await loadState(loaded, exported);
  });
  afterAll(async () => {
    await loaded?.close();
  });
  const withFiles = (change: Partial<SandboxState['files']>) => ({ ...exported, files: { ...exported.files, ...change } });

  it('refuses an upload intent of a client that has no key', async () => {
    const [first, ...rest] = exported.files.uploads;
    await expectRefusedUntouched(loaded, withFiles({ uploads: [{ ...first!, clientId: '999' }, ...rest] }), 'files.uploads.0.clientId');
  });

  it('refuses a status the verification machine does not have', async () => {
    const [first, ...rest] = exported.files.verifications;
    await expectRefusedUntouched(loaded, withFiles({ verifications: [{ ...first!, status: 'lost' }, ...rest] }), 'files.verifications.0.status');
  });

  it('refuses a verification document naming no upload intent of its client', async () => {
    const [first, ...rest] = exported.files.verifications;
    const documents = first!.documents.map((d, i) => (i === 0 ? { ...d, uploadIntent: 'no-such-intent' } : d));
    await expectRefusedUntouched(loaded, withFiles({ verifications: [{ ...first!, documents }, ...rest] }), 'files.verifications.0.documents.0.uploadIntent');
  });
});
