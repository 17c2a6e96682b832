// `exchange-api-kit serve --load FILE` as a process: it starts from a document GET /__mock/state
// exported, or from that request's whole answer (a minted key of the document answers), and
// exits 2 naming the file when the file is not JSON, nests deeper than PUT /__mock/state allows,
// is not a sandbox state document, or holds records that do not fit together.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxState } from '../../generated/sandbox-control/types.js';
import { binRunner, output } from '../support/bin-process.js';
import { startTestServer, type TestServer } from '../mock-server/support/server.js';

const dir = mkdtempSync(join(tmpdir(), 'exchange-api-kit-load-'));
const run = binRunner(dir);

function writeDocument(name: string, document: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, typeof document === 'string' ? document : JSON.stringify(document));
  return file;
}

describe('serve --load', () => {
  let source: TestServer;
  let state: SandboxState;
  let mintedToken: string;
  beforeAll(async () => {
    source = await startTestServer({ seed: 11 });
    mintedToken = (await source.control.mintToken({ body: { token: 'loaded_key_token_0123456789' } })).body.result.token;
    await source.control.createSite();
    state = (await source.control.exportSandboxState()).body.result;
  });
  afterAll(async () => {
    await source.close();
  });

  it('starts from the document: its keys answer and its seed is in use', async () => {
    const child = run(['serve', '--port', '0', '--log-level', 'silent', '--load', writeDocument('good.json', state)]);
    const { stdout } = await output(child, /try: curl .*\n/);
    expect(stdout).toContain('seed: 11');
    const url = /listening on (http:\/\/\S+)/.exec(stdout)?.[1];
    const ping = await fetch(`${url}/api/v3/private/ping`, { headers: { Authorization: `Bearer ${mintedToken}` } });
    expect(ping.status).toBe(200);
  });

  it("starts from GET /__mock/state's whole answer, saved as curl saves it", async () => {
    const answer = await (await fetch(`${source.url}/__mock/state`)).text();
    const child = run(['serve', '--port', '0', '--log-level', 'silent', '--load', writeDocument('answer.json', answer)]);
    const { stdout } = await output(child, /try: curl .*\n/);
    const url = /listening on (http:\/\/\S+)/.exec(stdout)?.[1];
    const ping = await fetch(`${url}/api/v3/private/ping`, { headers: { Authorization: `Bearer ${mintedToken}` } });
    expect(ping.status).toBe(200);
  });

  it.each([
    ['not JSON', () => '{"format": ', /--load .*broken\.json: .*JSON/],
    ['another version', () => ({ ...state, version: 2 }), /--load .*broken\.json: not a sandbox state document: \/version/],
    ['nested deeper than importSandboxState allows', () => `{"version":${'['.repeat(1000)}${']'.repeat(1000)}}`, /--load .*broken\.json: nests arrays and objects more than \d+ levels deep/],
    ['records that do not fit', () => ({ ...state, accounts: { ...state.accounts, sites: [...state.accounts.sites, ...state.accounts.sites.slice(-1)] } }), /--load: the document's records do not fit together: \/accounts\/sites/],
  ])('exits 2 on a document that is %s, saying why', async (_case, document, message) => {
    const exit = await output(run(['serve', '--port', '0', '--load', writeDocument('broken.json', document())]));
    expect(exit.code).toBe(2);
    expect(exit.stderr).toMatch(message);
  });
});
