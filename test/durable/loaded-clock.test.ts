// The clock of a loaded sandbox survives a restart on a durable store (a sqlite: file, a postgres://
// database), as a clock set through /__mock/clock does: a document exported with a frozen clock a
// day ahead, loaded by PUT /__mock/state or at start (what `serve --load` does), is still frozen at
// the same instant after a restart without the document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxState } from '../../generated/sandbox-control/types.js';
import { startTestServer, type TestServer } from '../mock-server/support/server.js';
import { exportState, loadState } from '../snapshot/support/state-documents.js';
import { durableEngines, durablePlace, type DurablePlace } from './support/durable-server.js';

/** A memory mock's document, its clock frozen and advanced a day. */
async function frozenDayAhead(): Promise<SandboxState> {
  const source = await startTestServer();
  try {
    await source.control.freezeClock();
    await source.control.advanceClock({ body: { seconds: 86_400 } });
    return await exportState(source);
  } finally {
    await source.close();
  }
}

/** What GET /__mock/clock answers on a mock restarted on `place` (no document given). */
async function clockAfterRestart(place: DurablePlace): Promise<{ now: string; frozen: boolean; offset_seconds: number }> {
  const restarted = await place.start();
  try {
    return (await restarted.control.getClock()).body.result;
  } finally {
    await restarted.close();
  }
}

describe.each(durableEngines())('the clock of a sandbox loaded on the $name engine', (engine) => {
  let document: SandboxState;
  const frozenAt = (): number => document.clock.frozen_at_ms!;

  beforeAll(async () => {
    document = await frozenDayAhead();
    expect(document.clock.frozen_at_ms).not.toBeNull();
  });
  afterAll(() => engine.cleanUp());

  it('is frozen at the same instant after a restart, when PUT /__mock/state loaded it', async () => {
    const place = await durablePlace(engine);
    const first: TestServer = await place.start();
    try {
      await loadState(first, document);
    } finally {
      await first.close();
    }
    const clock = await clockAfterRestart(place);
    expect(clock.frozen).toBe(true);
    expect(Date.parse(clock.now)).toBe(frozenAt());
  });

  it('is frozen at the same instant after a restart without the document it was started from', async () => {
    const place = await durablePlace(engine);
    await (await place.start({ state: document })).close();
    const clock = await clockAfterRestart(place);
    expect(clock.frozen).toBe(true);
    expect(Date.parse(clock.now)).toBe(frozenAt());
  });
});
