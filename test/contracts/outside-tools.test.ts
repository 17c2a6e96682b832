// contracts/ as tools other than ours read it, each with its own defaults (none sees
// contracts/redocly.yaml): swagger-parser validates every contract, Redocly's `recommended`
// ruleset and Spectral's `spectral:oas` find no error (and no example they cannot check), and
// Prism's validating proxy, pointed at contracts/, judges every response: a violation planted in
// a schema that every v3 response shares is flagged on each operation called, not on the first only.
import SwaggerParser from '@apidevtools/swagger-parser';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type RunningMockServer } from '../../mock-server/server.js';
import { freePort, stopProcess } from '../bench/lib/processes.js';
import { apiContracts, contractsDir, isObject, loadCatalogSchemas, loadContract, repoRoot, type ContractKey, type Json } from '../support/contracts.js';

const run = promisify(execFile);
const bin = (name: string) => join(repoRoot, 'node_modules', '.bin', name);
const contractFiles = Object.values(apiContracts);

/** A scratch directory: the tools run there, so no configuration of the project is found. */
let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'outside-tools-'));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

/** Runs a lint command that exits non-zero on findings; returns its stdout either way. */
async function lintOutput(command: string, args: string[]): Promise<string> {
  try {
    return (await run(command, args, { cwd: scratch, maxBuffer: 64 * 1024 * 1024 })).stdout;
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    if (failed.stdout === undefined || failed.stdout === '') throw new Error(`${command} failed: ${failed.stderr ?? String(error)}`);
    return failed.stdout;
  }
}

describe.each(contractFiles)('%s', (file) => {
  const path = join(contractsDir, file);

  it('is valid for swagger-parser', async () => {
    await expect(SwaggerParser.validate(path)).resolves.toBeDefined();
  });

  it('has no error and no unchecked example for Redocly `recommended`', async () => {
    const output = await lintOutput(bin('redocly'), ['lint', '--extends', 'recommended', '--format', 'json', path]);
    const problems = (JSON.parse(output) as { problems: { ruleId: string; severity: string; message: string }[] }).problems;
    const describe = (list: typeof problems) => list.map((p) => `${p.ruleId}: ${p.message}`).join('\n');
    const errors = problems.filter((p) => p.severity === 'error');
    expect(errors, describe(errors)).toEqual([]);
    const examples = problems.filter((p) => p.ruleId.includes('example'));
    expect(examples, describe(examples)).toEqual([]);
  }, 60_000);

  it('has no error for Spectral `spectral:oas`', async () => {
    const ruleset = join(scratch, '.spectral.yaml');
    await writeFile(ruleset, 'extends: ["spectral:oas"]\n');
    const output = await lintOutput(bin('spectral'), ['lint', '--ruleset', ruleset, '--format', 'json', '--quiet', path]);
    // Spectral severities: 0 error, 1 warning, 2 information, 3 hint.
    const errors = (JSON.parse(output || '[]') as { code: string; severity: number; message: string; path: string[] }[]).filter((p) => p.severity === 0);
    expect(errors.map((p) => `${p.code} at ${p.path.join('.')}: ${p.message}`)).toEqual([]);
  }, 60_000);
});

describe('free-form objects', () => {
  // openapi-typescript reads `type: object` with nothing else as an object with no properties at
  // all (Record<string, never>); a free-form object says `additionalProperties: true`.
  const documents: [string, Json][] = [
    ...Object.keys(apiContracts).map((key): [string, Json] => [apiContracts[key as ContractKey], loadContract(key as ContractKey)]),
    ...loadCatalogSchemas().map(({ file, schema }): [string, Json] => [`schemas/${file}`, schema]),
  ];
  it.each(documents)('%s: every object schema says which properties it takes', (_file, document) => {
    expect(bareObjects(document, '')).toEqual([]);
  });
});

const shapeKeywords = ['properties', 'additionalProperties', 'patternProperties', 'unevaluatedProperties', 'allOf', 'oneOf', 'anyOf', '$ref'];

/** Pointers of object schemas that name no property, no additionalProperties and no composition. */
function bareObjects(node: Json, pointer: string): string[] {
  if (Array.isArray(node)) return node.flatMap((item, index) => bareObjects(item, `${pointer}/${index}`));
  if (!isObject(node)) return [];
  const type = node.type;
  const object = type === 'object' || (Array.isArray(type) && type.includes('object'));
  const here = object && !shapeKeywords.some((keyword) => keyword in node) ? [pointer] : [];
  return [...here, ...Object.entries(node).filter(([key]) => key !== 'example' && key !== 'examples').flatMap(([key, value]) => bareObjects(value, `${pointer}/${key}`))];
}

describe("Prism's validating proxy in front of the mock", () => {
  let mock: RunningMockServer;
  let planted: string;
  beforeAll(async () => {
    mock = await startMockServer({ port: 0, seed: 20 });
    planted = join(scratch, 'planted');
    await cp(contractsDir, planted, { recursive: true });
    // Every v3 envelope's meta: the mock's request ids (req_ + 20 characters) break this bound.
    const metaFile = join(planted, 'schemas', 'envelope-meta.v1.json');
    const meta = JSON.parse(await readFile(metaFile, 'utf8')) as { properties: { request_id: Record<string, unknown> } };
    meta.properties.request_id.maxLength = 8;
    await writeFile(metaFile, JSON.stringify(meta, null, 2));
  });
  afterAll(() => mock.close());

  /** Three operations that share the envelope: two public ones and a private one. */
  const calls = ['/ping', '/public/contracts', '/private/client'];

  async function violationsThroughPrism(contractsRoot: string): Promise<Map<string, string>> {
    const prism = await startPrism(join(contractsRoot, apiContracts.v3), `${mock.url}/api/v3`);
    try {
      const seen = new Map<string, string>();
      for (const path of calls) {
        const response = await fetch(`${prism.url}${path}`, { headers: { Authorization: `Bearer ${mock.token}` } });
        await response.arrayBuffer();
        expect(response.status, path).toBe(200);
        seen.set(path, response.headers.get('sl-violations') ?? '');
      }
      return seen;
    } finally {
      await stopProcess(prism.child);
    }
  }

  it('flags a violation planted in a shared schema on every operation, and none without it', async () => {
    const withViolation = await violationsThroughPrism(planted);
    for (const path of calls) expect(withViolation.get(path), path).toMatch(/meta\.request_id/);
    const clean = await violationsThroughPrism(contractsDir);
    for (const path of calls) expect(clean.get(path), path).toBe('');
  }, 120_000);
});

/** `prism proxy` on a free port, answering once it serves requests. */
async function startPrism(contract: string, upstream: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(bin('prism'), ['proxy', '-h', '127.0.0.1', '-p', String(port), contract, upstream], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 600; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`prism exited with ${child.exitCode}: ${stderr}`);
    try {
      await (await fetch(`${url}/ping`)).arrayBuffer();
      return { url, child };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  await stopProcess(child);
  throw new Error(`prism did not answer within 60 s: ${stderr}`);
}
