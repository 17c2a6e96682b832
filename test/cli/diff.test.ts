// `exchange-api-kit diff OLD NEW` over real versions of the exchange contract: each kind of
// change an integrator's CI must catch is reported as breaking with exit code 1, additions as
// non-breaking with exit code 0, and --json writes the same changes for a machine.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { main } from '../../cli/main.js';
import { repoRoot } from '../support/contracts.js';

/** A parsed contract, edited freely by the cases. */
type Document = Record<string, any>;
const dir = mkdtempSync(join(tmpdir(), 'exchange-api-kit-diff-'));
const oldPath = join(repoRoot, 'generated', 'exchange-v3', 'openapi.yaml');
const original = readFileSync(oldPath, 'utf8');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs diff of the kit's contract against a changed copy; resolves with the exit code and what it printed. */
async function diffAgainst(change: (doc: Document) => void, ...flags: string[]) {
  const doc = parse(original, { maxAliasCount: -1 }) as Document;
  change(doc);
  const newPath = join(dir, `new-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(newPath, JSON.stringify(doc));
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(['diff', oldPath, newPath, ...flags], { env: {}, stdout: (text) => out.push(text), stderr: (text) => err.push(text) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('exchange-api-kit diff', () => {
  it('finds no change between a contract and itself', async () => {
    expect(await diffAgainst(() => undefined)).toMatchObject({ code: 0, out: '0 breaking, 0 non-breaking, 0 other changes' });
  });

  it.each<[string, (doc: Document) => void, RegExp]>([
    ['a removed operation', (doc) => delete doc.paths['/private/ping'], /GET \/private\/ping: \[Removed\] operation GET \/private\/ping/],
    ['a removed enum value a client may send', (doc) => doc.components.schemas.OrderStatus.enum.shift(), /GET \/private\/orders: .*query parameter `filter\[status\]`/],
    ['a tightened bound', (doc) => { doc.components.parameters.PerPage.schema.maximum = 50; }, /GET \/private\/orders: .*maximum.*`per_page`/],
    ['a new required request field', (doc) => {
      const body = doc.components.schemas.CreateOrderRequest;
      body.properties.note = { type: 'string' };
      body.required.push('note');
    }, /POST \/private\/exchange\/orders: \[Added\] required status to `note`/],
    ['a changed scope', (doc) => { doc.paths['/private/orders'].get['x-scope'] = 'orders:admin'; }, /GET \/private\/orders: \[Replaced\] required scope "orders:read" → "orders:admin"/],
    ['changed security', (doc) => { doc.paths['/private/orders'].get.security = [{ hmacSignature: [] }]; }, /GET \/private\/orders: .*security/],
  ])('reports %s as breaking, exit code 1', async (_name, change, line) => {
    const { code, out } = await diffAgainst(change);
    expect(code).toBe(1);
    const breaking = out.slice(out.indexOf('breaking ('), out.indexOf('non-breaking (') === -1 ? undefined : out.indexOf('non-breaking ('));
    expect(breaking).toMatch(line);
  });

  it('reports a new operation and a new optional field as non-breaking, exit code 0', async () => {
    const { code, out } = await diffAgainst((doc) => {
      doc.paths['/private/orders/export'] = { get: { operationId: 'exportOrders', 'x-scope': 'orders:read', responses: { '200': { description: 'The export.' } } } };
      doc.components.schemas.CreateOrderRequest.properties.note = { type: 'string' };
    });
    expect(code).toBe(0);
    expect(out).toMatch(/^0 breaking, [1-9]\d* non-breaking/);
    expect(out).toContain('GET /private/orders/export: [Added] operation GET /private/orders/export');
  });

  it('writes the changes as JSON with --json', async () => {
    const file = join(dir, 'changes.json');
    const { code } = await diffAgainst((doc) => delete doc.paths['/private/ping'], '--json', file);
    expect(code).toBe(1);
    const written = JSON.parse(readFileSync(file, 'utf8')) as { breaking: unknown[]; nonBreaking: unknown[] };
    expect(written.breaking).toContainEqual({
      kind: 'breaking', operation: 'GET /private/ping', pointer: '/paths/~1private~1ping/get', description: '[Removed] operation GET /private/ping',
    });
  });

  it('exits 2 naming a file that is not a contract', async () => {
    const notContract = join(dir, 'not-a-contract.yaml');
    writeFileSync(notContract, 'hello: world\n');
    const err: string[] = [];
    expect(await main(['diff', oldPath, notContract], { env: {}, stdout: () => undefined, stderr: (text) => err.push(text) })).toBe(2);
    expect(err.join('\n')).toContain(`${notContract}: not an OpenAPI document`);
  });
});
