// What an acknowledged answer spent of a key's limits survives kill -9. The process holding the
// sandbox keeps its cells (rate windows, used nonces) in memory and writes them with the journal
// before each answer leaves: a `serve` killed after signed requests were answered 200 starts again
// with their nonces spent (a replay is refused signature_replay) and its rate window counting them.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiError, ExchangeV3Client, exchangeV3SignatureScheme } from '../../generated/exchange-v3/client.js';
import { createHmacSigner } from '../../generated/runtime/client-runtime.js';
import { SandboxControlClient } from '../../generated/sandbox-control/client.js';
import { binRunner } from '../support/bin-process.js';
import { durableEngines } from './support/durable-server.js';
import { serve } from './support/serve-process.js';

const run = binRunner(mkdtempSync(join(tmpdir(), 'exchange-api-kit-cells-')));

/** The error code of a call's answer, or 'ok' for a 2xx. */
async function outcome(call: Promise<unknown>): Promise<string> {
  try {
    await call;
    return 'ok';
  } catch (error) {
    if (error instanceof ApiError) return error.code ?? String(error.status);
    throw error;
  }
}

describe.each(durableEngines())('cells after kill -9 on the $name engine', (engine) => {
  afterAll(() => engine.cleanUp());

  it('keeps the nonces and the rate window of every acknowledged signed request', async () => {
    const spec = await engine.place();
    const first = await serve(run, spec, '--seed', '11');
    const control = new SandboxControlClient({ baseUrl: first.url, retry: false });
    // A frozen clock: the one-minute window and the signature window cannot run out meanwhile.
    const frozenAt = Date.parse((await control.freezeClock()).body.result.now);
    const minted = (await control.mintToken({ body: { hmac_required: true, rate_limit_per_minute: 5 } })).body.result;
    const signed = (url: string, nonce: string) => {
      const signer = createHmacSigner(exchangeV3SignatureScheme, { secret: minted.hmac_secret }, { now: () => frozenAt, nonce: () => nonce });
      return new ExchangeV3Client({ baseUrl: url, token: minted.token, signer, retry: false });
    };
    for (const nonce of ['nonce-kept-000001', 'nonce-kept-000002', 'nonce-kept-000003']) expect((await signed(first.url, nonce).privatePing()).status).toBe(200);
    first.kill();
    await first.exit;

    const second = await serve(run, spec);
    // The replay is the window's 4th request (the limit is checked before the signature), refused as a replay.
    expect(await outcome(signed(second.url, 'nonce-kept-000002').privatePing())).toBe('signature_replay');
    expect(await outcome(signed(second.url, 'nonce-fresh-000001').privatePing())).toBe('ok');
    expect(await outcome(signed(second.url, 'nonce-fresh-000002').privatePing())).toBe('rate_limit_exceeded');
    second.kill('SIGTERM');
    await second.exit;
  });
});
