// A replica's forwarding (mock-server/replica/forward-to-holder.ts) when the holder dies under a
// request on a kept-alive connection and another process takes the sandbox over: the dead holder
// may have carried the request out, so one that is not safe to repeat is not sent to the new
// holder (the caller's connection closes unanswered, as the holder's own would have), while a GET
// is sent again and answered.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { forwardToHolder } from '../../mock-server/replica/forward-to-holder.js';
import type { JournalHolding } from '../../mock-server/store/record-journal.js';
import { call } from './support/call.js';

const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

interface Holder {
  url: string;
  received: string[];
  dead: boolean;
}

/** A holder that answers "ok"; with `diesOn`, it dies (its connection reset) once that request arrived. */
async function holder(diesOn?: string): Promise<Holder> {
  const state: Holder = { url: '', received: [], dead: false };
  state.url = await listen(
    createServer((req, res) => {
      state.received.push(`${req.method} ${req.url}`);
      req.resume();
      req.on('end', () => {
        if (req.url !== diesOn) return void res.end('ok');
        state.dead = true;
        req.socket.destroy();
      });
    }),
  );
  return state;
}

/** A replica forwarding to `first` until it died, then to `next`. */
async function replicaOf(first: Holder, next: Holder): Promise<string> {
  const holding: Pick<JournalHolding, 'holder'> = {
    holder: async () => (first.dead ? { url: next.url, secret: 'next' } : { url: first.url, secret: 'first' }),
  };
  const forwarding = forwardToHolder(holding, { trustProxy: [], waitMs: 5_000, keptBodyBytes: 1024 });
  const url = await listen(createServer(forwarding.listener));
  servers.at(-1)!.on('close', forwarding.close);
  return url;
}

describe('a replica whose holder dies under a forwarded request on a kept-alive connection', () => {
  it('does not send a POST to the next holder: the caller is left unanswered', async () => {
    const [first, next] = [await holder('/orders'), await holder()];
    const replica = await replicaOf(first, next);
    // The first request leaves a kept-alive connection to the holder, which the POST goes on.
    expect(await call(replica, 'GET', '/ping')).toBe('200 ok');
    expect(await call(replica, 'POST', '/orders')).toBe('closed');
    expect([first.received, next.received]).toEqual([['GET /ping', 'POST /orders'], []]);
  });

  it('sends a GET again to the next holder and answers it', async () => {
    const [first, next] = [await holder('/orders'), await holder()];
    const replica = await replicaOf(first, next);
    expect(await call(replica, 'GET', '/ping')).toBe('200 ok');
    expect(await call(replica, 'GET', '/orders')).toBe('200 ok');
    expect([first.received, next.received]).toEqual([['GET /ping', 'GET /orders'], ['GET /orders']]);
  });
});
