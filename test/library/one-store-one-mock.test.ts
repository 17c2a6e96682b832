// A store serves one mock: one SandboxStore given to two startMockServer calls made two sandboxes
// write one journal, each over the other's, and records whose answers had been sent were lost
// (a key minted on the first mock was gone once the file was opened again). The second start is
// refused, while the first runs and after it closed; a start that fails leaves the store free.
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { mockClients, openStore, startMockServer, type RunningMockServer } from 'exchange-api-kit';

const dir = mkdtempSync(join(tmpdir(), 'exchange-api-kit-one-store-'));
const servesOne = /^startMockServer: the store \(.+\) has served a mock already/;

async function mint(mock: RunningMockServer, name: string): Promise<void> {
  await mockClients(mock).control.mintToken({ body: { name } });
}

it('refuses a store that serves a running mock, and every record of that mock is kept', async () => {
  const spec = `sqlite:${join(dir, 'running.db')}`;
  const store = await openStore(spec);
  const first = await startMockServer({ store });
  try {
    await expect(startMockServer({ store })).rejects.toThrow(servesOne);
    await mint(first, 'from-first');
  } finally {
    await first.close();
    await store.close();
  }
  const reopened = await openStore(spec);
  const again = await startMockServer({ store: reopened });
  try {
    const keys = (await mockClients(again).control.exportSandboxState()).body.result.accounts.keys;
    expect(keys.map((key) => key.name)).toEqual(['default', 'from-first']);
  } finally {
    await again.close();
    await reopened.close();
  }
});

it('refuses a store whose mock has closed: it is opened again for the next', async () => {
  const store = await openStore('memory');
  const first = await startMockServer({ store });
  await first.close();
  try {
    await expect(startMockServer({ store })).rejects.toThrow(servesOne);
  } finally {
    await store.close();
  }
});

it('leaves the store to the next start when a start fails, on a bad document or a port taken', async () => {
  const store = await openStore('memory');
  const taken = createServer().listen(0, '127.0.0.1');
  await once(taken, 'listening');
  try {
    await expect(startMockServer({ store, state: {} })).rejects.toThrow(/^\//);
    await expect(startMockServer({ store, port: (taken.address() as AddressInfo).port })).rejects.toThrow(/EADDRINUSE/);
    const mock = await startMockServer({ store });
    await mock.close();
  } finally {
    taken.close();
    await store.close();
  }
});
