// The package entry as Node resolves it for an integrator (`import … from 'exchange-api-kit'`,
// package "exports" → lib/index.mjs, which loads index.ts through tsx): the same runtime exports
// as index.ts, and a mock that starts and answers through them.
import { execFileSync } from 'node:child_process';
import { expect, it } from 'vitest';
import * as kit from '../../index.js';
import { repoRoot } from '../support/contracts.js';

it('exports what index.ts exports, and its startMockServer and clients work', () => {
  // A package may import itself by name: this is the resolution an installed copy gets.
  const script = `
    const kit = await import('exchange-api-kit');
    const mock = await kit.startMockServer({ port: 0 });
    const { v3 } = kit.mockClients(mock);
    const ping = await v3.ping();
    await mock.close();
    console.log(JSON.stringify({ names: Object.keys(kit).sort(), status: ping.status }));`;
  const printed = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: repoRoot, encoding: 'utf8' });
  expect(JSON.parse(printed)).toEqual({ names: Object.keys(kit).sort(), status: 200 });
});
