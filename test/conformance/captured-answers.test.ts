// The mock's real answers, captured from a whole conformance run (successes, refusals of the auth
// and validation matrix, replays, the control API), held against what the contracts declare:
// the headers each status declares, and the types openapi-typescript 7 makes of contracts/
// (its CLI on the files as they lie; every JSON answer, as an object literal, must compile
// against its operation's response type under `strict`).
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentedResponses, type ContractName } from '../../conformance/contract/document.js';
import { startMockServer, type RunningMockServer } from '../../mock-server/server.js';
import { apiContracts, contractsDir, repoRoot, type ContractKey } from '../support/contracts.js';
import { captureConformanceRun, type Capture, type CapturedAnswer } from './support/captured-answers.js';
import { describeResults, failures } from './support/run.js';

const contractNames: Record<ContractKey, ContractName> = { v3: 'exchange-v3', v1: 'deposit-v1', control: 'sandbox-control' };

// What HTTP itself puts on a message (framing, dates, caching validators): not the API's to declare.
const httpHeaders = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding', 'etag', 'vary', 'cache-control']);

let mock: RunningMockServer;
let capture: Capture;

beforeAll(async () => {
  mock = await startMockServer({ port: 0, seed: 8, strict: true, loopbackWebhooksOnly: true });
  capture = await captureConformanceRun(mock);
}, 120_000);

afterAll(() => mock.close());

describe('answers captured from a conformance run of the mock', () => {
  it('cover every family, successes and refusals, each matched to its operation', () => {
    expect(failures(capture.report), describeResults(failures(capture.report))).toEqual([]);
    // Only the runner's GETs of a path no operation has and of paths that take no GET.
    const probes = capture.report.results.filter((r) => r.check === 'transport:unknown-path' || r.check === 'transport:wrong-method');
    expect(capture.unmatched.length).toBe(probes.length);
    expect(capture.unmatched.filter((request) => !request.startsWith('GET '))).toEqual([]);
    for (const contract of ['v3', 'v1', 'control'] as const) {
      expect(capture.answers.some((a) => a.contract === contract && a.status < 300), contract).toBe(true);
    }
    expect(capture.answers.some((a) => a.contract === 'v3' && a.status >= 400)).toBe(true);
    expect(capture.answers.some((a) => a.contract === 'v1' && a.status >= 400)).toBe(true);
  });

  it('carry only headers their operation declares for their status (errors included)', () => {
    const undeclared = new Set<string>();
    for (const answer of capture.answers) {
      const declared = documentedResponses(contractNames[answer.contract], answer.operationId).get(String(answer.status));
      const names = new Set(declared?.headers.map((header) => header.name.toLowerCase()));
      answer.headers.forEach((_value, name) => {
        if (!httpHeaders.has(name) && !names.has(name)) undeclared.add(`${answer.operationId} ${answer.status}: ${name}`);
      });
    }
    expect([...undeclared].sort()).toEqual([]);
  });

  it('include the conditional headers the contracts declare on refusals and replays', () => {
    const refusedWithLimits = capture.answers.find((a) => a.contract === 'v3' && a.status === 422 && a.headers.has('x-ratelimit-limit'));
    expect(refusedWithLimits, 'a v3 validation error past authentication').toBeDefined();
    const refusedBeforeAuthentication = capture.answers.find((a) => a.contract === 'v3' && a.status === 401 && !a.headers.has('x-ratelimit-limit'));
    expect(refusedBeforeAuthentication, 'a v3 401 without rate-limit headers').toBeDefined();
    expect(capture.answers.some((a) => a.headers.get('idempotent-replayed') === 'true'), 'a replayed answer').toBe(true);
  });
});

describe('the types openapi-typescript 7 makes of contracts/', () => {
  let scratch: string;
  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'openapi-typescript-'));
  });
  afterAll(() => rm(scratch, { recursive: true, force: true }));

  it('are satisfied by every JSON answer of the mock', async () => {
    for (const [contract, file] of Object.entries(apiContracts)) {
      await promisify(execFile)(join(repoRoot, 'node_modules', '.bin', 'openapi-typescript'), [join(contractsDir, file), '--output', join(scratch, `${contract}.ts`)]);
    }
    const answers = distinctJsonAnswers(capture.answers);
    expect(answers.length).toBeGreaterThan(100);
    await writeFile(join(scratch, 'answers.ts'), answersModule(answers));
    expect(typeErrors(join(scratch, 'answers.ts'))).toEqual([]);
  }, 120_000);

  it('catch an answer that breaks its type (the check itself)', async () => {
    const answer = capture.answers.find((a) => a.operationId === 'getClient' && a.status === 200)!;
    const broken = { ...answer, body: answer.body.replace(/"email":"[^"]*"/, '"email":42') };
    expect(broken.body).not.toBe(answer.body);
    await writeFile(join(scratch, 'broken.ts'), answersModule([broken]));
    expect(typeErrors(join(scratch, 'broken.ts')).join('\n')).toMatch(/getClient 200/);
  }, 60_000);
});

/** JSON answers, each distinct body of an operation and status once. */
function distinctJsonAnswers(answers: readonly CapturedAnswer[]): CapturedAnswer[] {
  const seen = new Set<string>();
  return answers.filter((answer) => {
    const json = /^application\/json\b/.test(answer.headers.get('content-type') ?? '');
    const key = `${answer.operationId} ${answer.status} ${answer.body}`;
    if (!json || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** One typed constant per answer: `operations[id]['responses'][status]['content']['application/json']`. */
function answersModule(answers: readonly CapturedAnswer[]): string {
  const lines = Object.keys(apiContracts).map((contract) => `import type { operations as ${contract} } from './${contract}.js';`);
  answers.forEach((answer, index) => {
    lines.push(
      `// ${answer.operationId} ${answer.status}`,
      `export const answer${index}: ${answer.contract}[${JSON.stringify(answer.operationId)}]['responses'][${answer.status}]['content']['application/json'] = ${answer.body};`,
    );
  });
  return `${lines.join('\n')}\n`;
}

/** tsc's diagnostics for the file, each with the answer (operation and status) it is about. */
function typeErrors(file: string): string[] {
  const program = ts.createProgram([file], { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, skipLibCheck: true });
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
    if (diagnostic.file === undefined || diagnostic.start === undefined) return text;
    const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
    const lines = diagnostic.file.text.split('\n');
    const about = lines.slice(0, line + 1).reverse().find((l) => l.startsWith('// ')) ?? '';
    return `${about.slice(3)}: ${text}`.slice(0, 600);
  });
}
