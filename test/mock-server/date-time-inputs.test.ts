// Every date-time a control request gives (mintToken's `expires_at`, a state document's
// `taken_at`: the control contract's `format: date-time` fields of request bodies, none in
// parameters) is read into an instant the mock can hold, or refused with 422 naming the field
// before anything is created. Over real HTTP. Before, a leap second or a `+05` offset minted the
// key and then answered 500 (the key left with no expiry, its id spent), and an expiry before
// 1970 was minted and made the export one that no mock would load.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxState } from '../../generated/sandbox-control/types.js';
import { exportState, expectRefusedUntouched, loadState } from '../snapshot/support/state-documents.js';
import { expectContractBody } from './support/contract.js';
import { failure } from './support/failure.js';
import { bearer, send } from './support/http.js';
import { startTestServer, type TestServer } from './support/server.js';

function withoutTakenAt(state: SandboxState): Omit<SandboxState, 'taken_at'> {
  const { taken_at: _takenAt, ...rest } = state;
  return rest;
}

describe('date-time inputs of the control API', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ seed: 11 });
    server.sandbox.stopDispatching();
  });
  afterAll(async () => {
    await server.close();
  });

  it.each([
    ['a leap second', '2026-12-31T23:59:60Z', '2027-01-01T00:00:00.000Z'],
    ['a leap second with a zero offset', '2026-06-30T23:59:60+00:00', '2026-07-01T00:00:00.000Z'],
    ['a leap second seen from another offset', '2026-07-01T05:29:60.250+05:30', '2026-07-01T00:00:00.250Z'],
    ['an offset of hours alone', '2027-01-01T05:00:00+05', '2027-01-01T00:00:00.000Z'],
    ['an offset without a colon', '2027-01-01T05:30:00+0530', '2027-01-01T00:00:00.000Z'],
    ['lower case and a fraction finer than a millisecond', '2027-01-01t00:00:00.1239z', '2027-01-01T00:00:00.123Z'],
    ['the last instant, a fraction past it cut off', '9999-12-31T23:59:59.9999Z', '9999-12-31T23:59:59.999Z'],
  ])('mints a key expiring at %s', async (_what, expiresAt, instant) => {
    const response = await server.control.mintToken({ body: { expires_at: expiresAt } });
    expect(response.status).toBe(201);
    expectContractBody('control', 'mintToken', 201, response.body);
    expect(response.body.result.key.expires_at).toBe(instant);
    const exported = await exportState(server);
    expect(exported.accounts.keys.at(-1)!.expiresAtMs).toBe(Date.parse(instant));
    await loadState(server, exported);
  });

  it.each([
    ['a leap second past the last instant', '9999-12-31T23:59:60Z'],
    ['the second before 1970', '1969-12-31T23:59:59Z'],
    ['year 0', '0000-01-01T00:00:00Z'],
    ['year 99', '0099-06-01T00:00:00Z'],
    ['an offset carrying it before 1970', '1970-01-01T00:00:00+01:00'],
  ])('refuses an expiry at %s with 422 naming expires_at, and mints nothing', async (_what, expiresAt) => {
    const token = 'tok_refused_expiry_000001';
    const before = withoutTakenAt(await exportState(server));
    const error = await failure(server.control.mintToken({ body: { token, expires_at: expiresAt } }));
    expect(error.status, JSON.stringify(error.body)).toBe(422);
    expect(error.code).toBe('validation_error');
    expectContractBody('control', 'mintToken', 422, error.body);
    expect(Object.keys(error.details)).toEqual(['expires_at']);
    // No key, no id or secret drawn: the sandbox exports as before, and the token is unknown.
    expect(withoutTakenAt(await exportState(server))).toEqual(before);
    expect((await send(server.url, '/api/v3/private/ping', { headers: bearer(token) })).status).toBe(401);
  });

  it.each(['0000-01-01T00:00:00Z', '1969-12-31T23:59:59.999Z', '9999-12-31T23:59:60Z'])('refuses a state document taken at %s, the sandbox untouched', async (takenAt) => {
    await expectRefusedUntouched(server, { ...(await exportState(server)), taken_at: takenAt }, 'taken_at');
  });

  it('loads a state document taken at a leap second', async () => {
    await loadState(server, { ...(await exportState(server)), taken_at: '2026-12-31T23:59:60Z' });
  });
});
