// Throughput, latency and server CPU per request of the five requests of throughput-cases.ts at
// 10 and 50 connections, against baselines measured in the same run serving the same JSON: a bare
// node:http server and a plain express 5 app (and, with --with-prism, Prism mocking our own
// contracts: the v3 one for the v3 requests, the v1 deposit one for the v1 requests; prism.ts). The mock is measured twice per repeat: on a fresh process (started for the repeat)
// and on one long-lived process that has served every earlier load, so a cost that grows with
// what a process has stored shows as a gap between the two. With --store, the fresh mock runs on
// each storage engine named (memory by default), and with memory among several, each other
// engine's req/s is given as a ratio to memory's in the same run. Figures are medians of the
// repeats, which interleave the servers so drift on a shared machine hits all of them alike.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { depositV1RoutesBasePath } from '../../generated/deposit-v1/routes.js';
import { exchangeV3RoutesBasePath } from '../../generated/exchange-v3/routes.js';
import { apiContracts, contractsDir } from '../support/contracts.js';
import { startPostgres, type PostgresServer } from '../support/postgres-server.js';
import { load, type LoadFigures, type LoadRequest } from './lib/load.js';
import { startChild, tsxNode, type ChildServer } from './lib/processes.js';
import { median, ratio, round, type BenchResult } from './lib/report.js';
import { startPrism } from './prism.js';
import { throughputCases, type Case, type MockCredentials } from './throughput-cases.js';

export interface ThroughputOptions {
  quick: boolean;
  withPrism: boolean;
  /** Storage engines to run the fresh mock on: memory, sqlite, postgres. */
  stores?: readonly string[];
}

const connectionCounts = [10, 50];

interface Server {
  name: string;
  /** The server's origin. */
  url: string;
  pid: number | undefined;
  serves(c: Case): boolean;
  /** The path and query a case is sent to (a Prism serves its contract under its own base path). */
  target(c: Case): string;
}

/** Each family of cases (by name prefix), the contract Prism mocks for it and where its routes mount. */
const prismContracts = [
  { family: 'v3 ', contract: join(contractsDir, apiContracts.v3), routesBasePath: exchangeV3RoutesBasePath },
  { family: 'v1 ', contract: join(contractsDir, apiContracts.v1), routesBasePath: depositV1RoutesBasePath },
];

/** One Prism per contract, each serving its family's cases; skipped ones say why. */
async function prismBaselines(cases: readonly Case[]): Promise<{ servers: Server[]; children: ChildServer<unknown>[]; skipped: string[] }> {
  const started = await Promise.all(
    prismContracts.map(async ({ family, contract, routesBasePath }) => {
      const ofFamily = (c: Case) => c.name.startsWith(family);
      const probe = cases.find((c) => ofFamily(c) && c.method === 'GET')!;
      const prism = await startPrism(contract, routesBasePath, {
        path: probe.target.slice(routesBasePath.length),
        headers: () => ({ ...probe.headers, ...probe.each?.().headers }),
      });
      return { prism, ofFamily, routesBasePath };
    }),
  );
  const servers: Server[] = [];
  const children: ChildServer<unknown>[] = [];
  const skipped: string[] = [];
  for (const { prism, ofFamily, routesBasePath } of started) {
    if ('skipped' in prism) {
      skipped.push(prism.skipped);
      continue;
    }
    children.push(prism.server);
    const url = prism.server.info.url + prism.basePath;
    servers.push({ name: 'prism', url, pid: undefined, serves: ofFamily, target: (c) => c.target.slice(routesBasePath.length) });
  }
  return { servers, children, skipped };
}

/** The benchmarks' mock child (servers/mock.ts) says whether it runs the compiled kit. */
type MockChildInfo = MockCredentials & { compiled: boolean };
type MockChild = ChildServer<MockChildInfo>;

/** Starts mocks on a storage engine: a new SQLite file or PostgreSQL database for each. */
function mockStarter(engine: string, scratch: string, postgres: () => Promise<PostgresServer>): () => Promise<MockChild> {
  let made = 0;
  return async () => {
    made += 1;
    const spec = engine === 'memory' ? 'memory' : engine === 'sqlite' ? `sqlite:${join(scratch, `mock-${made}.db`)}` : await (await postgres()).createDatabase();
    return startChild<MockChildInfo>(tsxNode, 'test/bench/servers/mock.ts', [spec]);
  };
}

const whole = (c: Case) => c.target;
const mockServer = (name: string, child: MockChild): Server => ({ name, url: child.info.url, pid: child.child.pid, serves: () => true, target: whole });

export async function throughput(options: ThroughputOptions): Promise<BenchResult> {
  const durationSeconds = options.quick ? 1 : 5;
  const repeats = options.quick ? 1 : 3;
  const stores = options.stores ?? ['memory'];
  const children: { stop(): Promise<void> }[] = [];
  const scratch = mkdtempSync(join(tmpdir(), 'bench-throughput-'));
  let postgres: Promise<PostgresServer> | undefined;
  const startPostgresOnce = () => (postgres ??= startPostgres());
  try {
    const longLived = await mockStarter('memory', scratch, startPostgresOnce)();
    children.push(longLived);
    const { cases, canned } = await throughputCases(longLived.info);
    const cannedFile = join(scratch, 'responses.json');
    writeFileSync(cannedFile, JSON.stringify(canned));
    const baselines: Server[] = [];
    for (const kind of ['node-http', 'express']) {
      const child = await startChild<{ url: string }>(tsxNode, 'test/bench/servers/baseline.ts', [kind, cannedFile]);
      children.push(child);
      baselines.push({ name: kind === 'express' ? 'express 5' : 'node:http', url: child.info.url, pid: child.child.pid, serves: () => true, target: whole });
    }
    let prismSkipped: string[] = [];
    if (options.withPrism) {
      const prism = await prismBaselines(cases);
      children.push(...prism.children);
      baselines.push(...prism.servers);
      prismSkipped = prism.skipped;
    }
    const freshName = (engine: string) => (stores.length === 1 && engine === 'memory' ? 'mock' : `mock ${engine}`);
    const starters = stores.map((engine) => ({ name: freshName(engine), start: mockStarter(engine, scratch, startPostgresOnce) }));

    const samples = new Map<string, LoadFigures[]>();
    const requestFor = (server: Server, c: Case): LoadRequest => ({
      url: `${server.url}${server.target(c)}`,
      method: c.method,
      headers: c.headers,
      ...(c.body === undefined ? {} : { body: c.body }),
      ...(c.each === undefined ? {} : { each: c.each }),
    });
    const measure = async (servers: readonly Server[], seconds: number, record: boolean) => {
      for (const c of cases) {
        for (const connections of connectionCounts) {
          for (const server of servers.filter((s) => s.serves(c))) {
            const figures = await load(requestFor(server, c), connections, seconds, server.pid);
            if (!record) continue;
            const key = `${c.name}|${connections}|${server.name}`;
            samples.set(key, [...(samples.get(key) ?? []), figures]);
          }
        }
      }
    };
    for (let repeat = 0; repeat < repeats; repeat += 1) {
      const fresh: MockChild[] = [];
      for (const starter of starters) fresh.push(await starter.start());
      const servers = [...baselines, ...fresh.map((child, i) => mockServer(starters[i]!.name, child)), mockServer('mock long-lived', longLived)];
      // A short warm-up per server and request: JIT and connection pools, not measured.
      await measure(servers, 1, false);
      await measure(servers, durationSeconds, true);
      for (const child of fresh) await child.stop();
    }

    const medianOf = (key: string, pick: (f: LoadFigures) => number) => median((samples.get(key) ?? []).map(pick));
    const serverNames = [...new Set([...samples.keys()].map((key) => key.split('|')[2]!))];
    const memoryName = stores.length > 1 && stores.includes('memory') ? freshName('memory') : null;
    const onOtherEngine = new Set(starters.map((s) => s.name).filter((name) => name !== memoryName));
    const rows = [];
    for (const c of cases) {
      for (const connections of connectionCounts) {
        const rpsOf = (name: string) => medianOf(`${c.name}|${connections}|${name}`, (f) => f.requestsPerSecond);
        for (const name of serverNames) {
          const key = `${c.name}|${connections}|${name}`;
          const all = samples.get(key);
          if (all === undefined) continue;
          rows.push({
            request: c.name,
            connections,
            server: name,
            'req/s': round(rpsOf(name)),
            'p50 ms': round(medianOf(key, (f) => f.p50Ms), 1),
            'p99 ms': round(medianOf(key, (f) => f.p99Ms), 1),
            'CPU µs/req': name === 'prism' ? null : round(medianOf(key, (f) => f.serverCpuUs)),
            'client µs/req': round(medianOf(key, (f) => f.clientCpuUs)),
            'vs express': ratio(rpsOf(name), rpsOf('express 5')),
            'vs node:http': ratio(rpsOf(name), rpsOf('node:http')),
            'vs prism': name === 'prism' ? null : ratio(rpsOf(name), rpsOf('prism')),
            'vs memory': memoryName !== null && onOtherEngine.has(name) ? ratio(rpsOf(name), rpsOf(memoryName)) : null,
            'non-2xx': all.reduce((sum, f) => sum + f.non2xx, 0),
            errors: all.reduce((sum, f) => sum + f.errors, 0),
          });
        }
      }
    }
    return {
      name: 'throughput',
      rows,
      details: {
        durationSeconds,
        repeats,
        stores,
        mock: longLived.info.compiled ? 'the compiled kit (dist/), as npm start runs it' : 'the TypeScript sources through tsx (dist/ is stale: run npm run build first)',
        ...(options.withPrism ? { prism: prismSkipped.length === 0 ? 'measured' : `skipped: ${prismSkipped.join('; ')}` } : {}),
        requests: Object.fromEntries(cases.map((c) => [c.name, `${c.method} ${c.target}${c.body === undefined ? '' : ` ${c.body}`}`])),
      },
    };
  } finally {
    for (const child of children) await child.stop();
    if (postgres !== undefined) (await postgres).stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}
