// The control API's admin guard fails closed: a mock built with an empty admin token (which
// startMockServer and serve refuse, but a program mounting createApp() could pass) let every
// request in, the missing header being read as an empty string equal to it.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { createApp } from '../../mock-server/app.js';
import { sandboxControlSecuritySchemes } from '../../generated/sandbox-control/contract-data.js';

it('an empty admin token lets no request into the control API, without the header or with an empty one', async () => {
  const { listener, sandbox } = createApp({ seed: 7, adminToken: '' });
  await sandbox.resume();
  const server = createServer(listener).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/__mock/clock`;
    const header = sandboxControlSecuritySchemes.adminToken.name;
    const statuses = [(await fetch(url)).status, (await fetch(url, { headers: { [header]: '' } })).status];
    expect(statuses).toEqual([401, 401]);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});
