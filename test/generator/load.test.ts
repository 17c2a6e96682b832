// A contract that does not load names the file, the JSON pointer and the reason (given/want).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ContractError, loadContract } from '../../generator/load.js';

const dir = mkdtempSync(join(tmpdir(), 'load-contract-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const head = 'openapi: 3.1.0\ninfo:\n  title: t\n  version: "1"\n';

const cases: { name: string; yaml: string; pointer: string; reason: RegExp }[] = [
  {
    name: 'a YAML syntax error',
    yaml: 'openapi: 3.1.0\ninfo:\n  title: t\n version: 1\n',
    pointer: '',
    reason: /^bad indentation of a mapping entry \(4:2\)$/,
  },
  {
    name: 'a dangling $ref (pointer of the $ref itself)',
    yaml: `${head}paths:\n  /a:\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema:\n                $ref: '#/components/schemas/Missing'\n`,
    pointer: '/paths/~1a/get/responses/200/content/application~1json/schema',
    reason: /^\$ref "#\/components\/schemas\/Missing" does not resolve$/,
  },
  {
    name: 'a schema violation',
    yaml: `${head}paths:\n  /a:\n    get:\n      parameters:\n        - name: x\n          schema: { type: string }\n      responses:\n        '200': { description: ok }\n`,
    pointer: '/paths/~1a/get/parameters/0',
    reason: /in/,
  },
];

describe('loadContract errors', () => {
  it.each(cases)('$name', async ({ name, yaml, pointer, reason }) => {
    const file = join(dir, `${name.replace(/\W+/g, '-')}.openapi.yaml`);
    writeFileSync(file, yaml);
    const error = await loadContract(file, dir).then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(ContractError);
    const contractError = error as ContractError;
    expect(contractError.file).toBe(file.slice(dir.length + 1));
    expect(contractError.pointer).toBe(pointer);
    expect(contractError.reason).toMatch(reason);
  });

  it('loads a valid contract, bundled, with the name taken from the file', async () => {
    const file = join(dir, 'tiny.openapi.yaml');
    writeFileSync(file, `${head}paths: {}\n`);
    const loaded = await loadContract(file, dir);
    expect(loaded.name).toBe('tiny');
    expect(loaded.source).toBe('tiny.openapi.yaml');
  });
});
