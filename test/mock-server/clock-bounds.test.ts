// The virtual clock never leaves the instants it may show, over real HTTP: those of the control
// contract's EpochMs (1970 to the end of year 9999) short of the last year, the longest advance
// of one call, so that what a record counts from now is still an EpochMs. An advance past the
// last one is refused with 422 and the clock left as it was, a running clock that reaches it in
// real time stops there, a document whose clock would be outside is refused, and a sandbox at the
// bound, used, still exports a document that loads. Before, a year-long advance repeated ~8,100
// times showed `+011020-…` in every answer, and ~274,000 of them made every route answer
// express's HTML 500 page and the next v3 request end the process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxState } from '../../generated/sandbox-control/types.js';
import { exportState, expectRefusedUntouched, loadState, putState } from '../snapshot/support/state-documents.js';
import { expectContractBody } from './support/contract.js';
import { failure } from './support/failure.js';
import { send } from './support/http.js';
import { startTestServer, type TestServer } from './support/server.js';

/** A year (the longest advance) before the last EpochMs, 9999-12-31T23:59:59.999Z. */
const lastInstant = '9998-12-31T23:59:59.999Z';
const lastMs = Date.parse(lastInstant);
const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('the bounds of the virtual clock', () => {
  let server: TestServer;
  let document: SandboxState;
  beforeAll(async () => {
    server = await startTestServer({ seed: 42 });
    server.sandbox.stopDispatching();
    document = await exportState(server);
  });
  afterAll(async () => {
    await server.close();
  });

  async function clockNow(): Promise<string> {
    return (await server.control.getClock()).body.result.now;
  }

  /** The sandbox's own export loads back into it (every instant in it can be shown). */
  async function expectExportLoads(): Promise<void> {
    const exported = await exportState(server);
    expect(exported.taken_at).toMatch(rfc3339);
    await loadState(server, exported);
  }

  async function expectAdvanceRefused(body: { seconds: number } | { duration: string }, field: string): Promise<void> {
    const before = await clockNow();
    const error = await failure(server.control.advanceClock({ body }));
    expect(error.status, JSON.stringify(error.body)).toBe(422);
    expect(error.code).toBe('validation_error');
    expectContractBody('control', 'advanceClock', 422, error.body);
    expect(Object.keys(error.details)).toEqual([field]);
    expect(await clockNow()).toBe(before);
  }

  it('advances up to the last instant, refuses to pass it with 422 naming the field, and still exports a document that loads', async () => {
    await loadState(server, { ...document, clock: { offset_ms: 0, frozen_at_ms: lastMs - 90_000 } });
    expect((await server.control.advanceClock({ body: { seconds: 60 } })).body.result.now).toBe('9998-12-31T23:59:29.999Z');
    await expectAdvanceRefused({ seconds: 31 }, 'seconds');
    await expectAdvanceRefused({ duration: 'PT31S' }, 'duration');

    const atEnd = await server.control.advanceClock({ body: { duration: 'PT30S' } });
    expectContractBody('control', 'advanceClock', 200, atEnd.body);
    expect(atEnd.body.result.now).toBe(lastInstant);
    expect(atEnd.body.meta.timestamp).toBe(lastInstant);
    await expectAdvanceRefused({ seconds: 0.001 }, 'seconds');

    const ping = await send(server.url, '/api/v3/ping');
    expect(ping.status).toBe(200);
    expect((ping.json as { meta: { timestamp: string } }).meta.timestamp).toBe(lastInstant);
    // A key used at the last instant stores rate and quota windows ending after it (its month's
    // end at most): they are still EpochMs, so the export loads.
    expect((await server.v3.privatePing()).status).toBe(200);
    await expectExportLoads();
    expect(await clockNow()).toBe(lastInstant);
    expect((await server.control.resetSandbox()).status).toBe(200);
  });

  it('advances in whole milliseconds, as an EpochMs counts them', async () => {
    await server.control.freezeClock();
    const before = Date.parse(await clockNow());
    const advanced = await server.control.advanceClock({ body: { seconds: 1.0004 } });
    expect(Date.parse(advanced.body.result.now) - before).toBe(1000);
    await expectExportLoads();
    await expectAdvanceRefused({ seconds: 0.0004 }, 'seconds');
    await server.control.resetSandbox();
  });

  it('stops a running clock that reaches the last instant in real time, frozen there', async () => {
    // Loaded 1.5 s before the end (the load must find the clock within the bound), then waited out.
    const loaded = await putState(server, { ...document, clock: { offset_ms: lastMs - 1500 - Date.now(), frozen_at_ms: null } });
    expect(loaded.status, loaded.text).toBe(200);
    expect((await server.control.getClock()).body.result.frozen).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 1600));

    const clock = await server.control.getClock();
    expectContractBody('control', 'getClock', 200, clock.body);
    expect(clock.body.result).toMatchObject({ now: lastInstant, frozen: true });
    // Resumed, it runs no further.
    expect((await server.control.resumeClock()).body.result.now).toBe(lastInstant);
    await expectAdvanceRefused({ seconds: 1 }, 'seconds');
    await expectExportLoads();
    expect(await clockNow()).toBe(lastInstant);
    await server.control.resetSandbox();
  });

  it.each([
    ['past the last EpochMs (year 10056)', 253_402_300_799_999],
    ['before 1970 (year -6004)', -253_402_300_799_999],
    ['one millisecond past the last instant', () => lastMs + 1 - Date.now()],
  ])('refuses a document whose running clock would be %s, the sandbox untouched', async (_what, offset) => {
    const offsetMs = typeof offset === 'number' ? offset : offset();
    await expectRefusedUntouched(server, { ...document, clock: { offset_ms: offsetMs, frozen_at_ms: null } }, 'clock.offset_ms');
    expect(await clockNow()).toMatch(rfc3339);
    expect((await server.v3.ping()).status).toBe(200);
  });

  it('refuses a document frozen in the last year an EpochMs holds, the sandbox untouched', async () => {
    await expectRefusedUntouched(server, { ...document, clock: { offset_ms: 0, frozen_at_ms: lastMs + 1 } }, 'clock.frozen_at_ms');
  });
});
