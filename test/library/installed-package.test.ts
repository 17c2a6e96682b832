// The kit as an integrator gets it: packed with `npm pack` (its prepack build) and installed from
// the tarball into a new project (support/consumer-project.ts: offline, from npm's cache). Then:
// (a) tsc under the strictest flags (strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess,
//     no skipLibCheck), with NodeNext and with Bundler resolution, over code that uses every
//     public export (consumer/src): no error; the library's declarations need no @types/express;
// (b) that code runs in plain Node, as an ES module and through require();
// (c) `npx exchange-api-kit serve` answers, with the token it prints;
// (d) `exchange-api-kit generate --out src/generated` writes code that compiles under the same
//     flags, with the DOM lib in the project's types too, and under noUnusedLocals,
//     noUnusedParameters, erasableSyntaxOnly and noPropertyAccessFromIndexSignature, and runs
//     with what the kit declares as peer dependencies.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as kitSource from '../../index.js';
import * as conformanceSource from '../../conformance/index.js';
import { installConsumer, packKit, type PackedKit } from './support/consumer-project.js';

/** A whole program's type check, generated code included (the validators alone are 1.5 MB). */
const compileTimeoutMs = 180_000;
const work = mkdtempSync(join(tmpdir(), 'exchange-api-kit-consumer-'));
let kit: PackedKit;
let project: string;
const runtimeExports = Object.keys(kitSource).sort();
const conformanceExports = Object.keys(conformanceSource).sort();

/** Runs a command of the project's (its node_modules/.bin first on PATH); returns stdout. */
function inProject(command: string, args: string[]): string {
  const env = { ...process.env, PATH: `${join(project, 'node_modules', '.bin')}:${process.env.PATH ?? ''}` };
  return execFileSync(command, args, { cwd: project, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Runs tsc with one of the project's configs; returns its diagnostics (empty when it compiles). */
function compile(config: string): string {
  try {
    inProject('tsc', ['-p', config]);
    return '';
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error);
  }
}

/** The last line of a program's output, as JSON. */
const lastJson = (output: string): Record<string, unknown> => JSON.parse(output.trim().split('\n').at(-1) ?? '') as Record<string, unknown>;

beforeAll(() => {
  kit = packKit(work);
  project = installConsumer(work, kit, ['typescript', '@types/node', '@types/express']);
  cpSync(join(import.meta.dirname, 'consumer'), project, { recursive: true });
  inProject('exchange-api-kit', ['generate', '--out', 'src/generated']);
}, 300_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the packed package', () => {
  it('holds compiled JavaScript and declarations, no TypeScript source and no build record', () => {
    expect(kit.files).toContain('dist/index.js');
    expect(kit.files).toContain('dist/types/index.d.ts');
    expect(kit.files).toContain('dist/conformance.js');
    expect(kit.files.filter((file) => /(?<!\.d)\.ts$/.test(file) && !file.startsWith('generated/'))).toEqual([]);
    expect(kit.files).not.toContain('dist/build.json');
    expect(existsSync(join(project, 'node_modules', 'tsx'))).toBe(false);
  });

  it('holds every page its README and docs link to, so the links work in node_modules and on the registry', () => {
    const installed = join(project, 'node_modules', 'exchange-api-kit');
    const pages = ['README.md', ...kit.files.filter((file) => /^docs\/[^/]+\.md$/.test(file))];
    expect(pages.length).toBeGreaterThan(1);
    const missing = pages.flatMap((page) => {
      const text = readFileSync(join(installed, page), 'utf8');
      const targets = [...text.matchAll(/\]\(((?![a-z]+:|#)[^)#\s]+)(?:#[^)]*)?\)/g)].map((match) => match[1]!);
      const packed = (file: string) => (file.endsWith('/') ? kit.files.some((packedFile) => packedFile.startsWith(file)) : kit.files.includes(file));
      return targets.map((target) => join(page, '..', target)).filter((file) => !packed(file)).map((file) => `${page} → ${file}`);
    });
    expect(missing).toEqual([]);
  });
});

describe('a consumer project', () => {
  it('compiles code using every public export with NodeNext resolution', () => {
    expect(compile('tsconfig.nodenext.json')).toBe('');
  }, compileTimeoutMs);

  it('needs no @types/express for the library: its declarations name no express type', () => {
    const read = inProject('tsc', ['-p', 'tsconfig.library.json', '--listFilesOnly']).trim().split('\n');
    expect(read.some((file) => file.includes('/exchange-api-kit/dist/types/'))).toBe(true);
    expect(read.filter((file) => file.includes('@types/express'))).toEqual([]);
  }, compileTimeoutMs);

  it('compiles the same code with Bundler resolution', () => {
    expect(compile('tsconfig.bundler.json')).toBe('');
  }, compileTimeoutMs);

  it('compiles the generated code with the DOM lib too (TypeScript\'s default when lib is unset)', () => {
    expect(compile('tsconfig.dom.json')).toBe('');
  }, compileTimeoutMs);

  it('compiles the generated code with noUnusedLocals, noUnusedParameters, erasableSyntaxOnly and noPropertyAccessFromIndexSignature', () => {
    expect(compile('tsconfig.stricter.json')).toBe('');
  }, compileTimeoutMs);

  it('runs it in plain Node as an ES module: every export there, the mock, clients, conformance, contracts', () => {
    const printed = lastJson(inProject('node', ['out/use-kit.js']));
    expect(printed).toEqual({
      exports: runtimeExports,
      conformanceExports,
      ping: 200,
      v1Deposit: 'waiting',
      mockV3: 200,
      storePing: 200,
      stateRefusedAt: '/',
      frozen: 'boolean',
      refused: 'invalid_token',
      override: { operation: 'privatePing', answered: true },
      signatureHeader: expect.any(String),
      webhookVerified: true,
      conformance: { tags: expect.any(Number), passed: expect.any(Number), failures: 0, rendered: true },
      contractOpenApi: true,
      bundledOpenApi: true,
    });
    expect((printed.conformance as { passed: number }).passed).toBeGreaterThan(0);
  });

  it('loads it through require() from CommonJS', () => {
    const printed = lastJson(inProject('node', ['out/require-kit.cjs']));
    expect(printed).toEqual({ exports: runtimeExports, conformanceExports, ping: 200, frozen: 'boolean', tags: expect.any(Number) });
  });

  it('runs the generated client, validators and router with the peer dependencies installed', () => {
    const printed = lastJson(inProject('node', ['out/use-generated.js']));
    expect(printed).toEqual({ ping: 200, validPing: true, routes: expect.any(Number), refusedStatus: 422, orderInitial: expect.any(String) });
  });

  it('refuses generate without --out, which only a checkout of the kit can do, and says so', () => {
    const refused = spawnSync(join(project, 'node_modules', '.bin', 'exchange-api-kit'), ['generate'], { cwd: project, encoding: 'utf8' });
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/checkout of the kit.*--out/);
  });

  it('got from generate --out exactly the kit\'s generated/ files', () => {
    const written = readFileSync(join(project, 'src', 'generated', 'exchange-v3', 'client.ts'), 'utf8');
    expect(written).toBe(readFileSync(join(import.meta.dirname, '..', '..', 'generated', 'exchange-v3', 'client.ts'), 'utf8'));
  });
});

describe('npx exchange-api-kit serve', () => {
  let server: ChildProcess | undefined;
  afterAll(() => {
    if (server?.pid !== undefined) process.kill(-server.pid, 'SIGTERM'); // npx and the node process it started
  });

  it('starts the mock and prints a token the API accepts', async () => {
    server = spawn('npx', ['--offline', 'exchange-api-kit', 'serve', '--port', '0'], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const banner = await new Promise<string>((resolve, reject) => {
      let out = '';
      server!.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
        if (/try: curl .*\n/.test(out)) resolve(out);
      });
      server!.once('close', (code) => reject(new Error(`serve exited (${code}) before its banner:\n${out}`)));
    });
    const url = /listening on (http:\/\/\S+)/.exec(banner)?.[1];
    const token = /token: (\S+)/.exec(banner)?.[1];
    expect((await fetch(`${url}/api/v3/private/ping`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    expect((await fetch(`${url}/docs/assets/swagger-ui-bundle.js`)).status).toBe(200);
    expect((await fetch(`${url}/__mock/ui/`)).status).toBe(200);
  });
});
