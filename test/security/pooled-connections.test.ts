// Webhook attempts keep their connection alive and reuse it, pooled by the address the egress
// policy checked: the next attempt to the same receiver needs no new connection, and a name that
// now resolves to an address the policy refuses is refused, pooled socket or not.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EgressPolicy } from '../../mock-server/dispatch/egress-policy.js';
import { httpTransport, type ResolvedAddress } from '../../mock-server/dispatch/http-transport.js';

describe('kept-alive webhook connections', () => {
  let receiver: Server;
  let port = 0;
  let connections = 0;
  beforeAll(async () => {
    receiver = createServer((req, res) => req.resume().on('end', () => res.writeHead(204).end()));
    receiver.on('connection', () => (connections += 1));
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    port = (receiver.address() as AddressInfo).port;
  });
  afterAll(() => {
    receiver.closeAllConnections();
    receiver.close();
  });

  const attempt = { headers: { 'content-type': 'application/json' }, body: '{}' };
  const timeout = () => AbortSignal.timeout(5_000);

  it('reuses one connection for attempts after each other to the same receiver', async () => {
    const transport = httpTransport({ policy: new EgressPolicy({ mode: 'loopback' }) });
    const before = connections;
    for (let i = 0; i < 5; i += 1) expect((await transport({ url: `http://127.0.0.1:${port}/hook`, ...attempt }, timeout())).status).toBe(204);
    expect(connections - before).toBe(1);
  });

  it('checks a name again when it resolves elsewhere, whatever sockets are kept', async () => {
    let answer: ResolvedAddress[] = [{ address: '127.0.0.1', family: 4 }];
    const transport = httpTransport({ policy: new EgressPolicy({ mode: 'loopback' }), resolve: async () => answer });
    const url = `http://receiver.test:${port}/hook`;
    expect((await transport({ url, ...attempt }, timeout())).status).toBe(204);
    answer = [{ address: '10.0.0.1', family: 4 }];
    await expect(transport({ url, ...attempt }, timeout())).rejects.toMatchObject({ code: 'EGRESS_DENIED' });
  });
});
