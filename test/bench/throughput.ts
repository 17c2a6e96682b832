// Throughput and latency of an authenticated, validated list GET (listRoutes) and a create POST
// (createQuote) at 10 and 50 connections — and of the authenticated privatePing, whose handler
// does nearly nothing, to show the cost of the mock's pipeline alone — against baselines measured in the same run serving the
// same JSON: a bare node:http server and a plain express 5 app (and, with --with-prism, Prism
// mocking our own contract). Each server runs in its own process; figures are medians of the
// repeats, which interleave the servers so drift on a shared machine hits all of them alike.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exchangeV3Routes, exchangeV3RoutesBasePath } from '../../generated/exchange-v3/routes.js';
import { load, type LoadFigures, type LoadRequest } from './lib/load.js';
import { startChild, tsxNode, type ChildServer } from './lib/processes.js';
import { median, ratio, round, type BenchResult } from './lib/report.js';
import { startPrism } from './prism.js';

export interface ThroughputOptions {
  quick: boolean;
  withPrism: boolean;
}

export interface Case {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  query: string;
  body?: string;
}

const connectionCounts = [10, 50];

const base = exchangeV3RoutesBasePath;

/** The operation's path below the base path, from the generated route table. */
function pathOf(operationId: string): string {
  const route = exchangeV3Routes.find((r) => r.operationId === operationId);
  if (route === undefined) throw new Error(`no operation ${operationId} in the v3 contract`);
  return route.path;
}

/** The requests measured, with a quote body priced on the first enabled route the mock lists (the soak reuses them). */
export async function cases(mockUrl: string, headers: Record<string, string>): Promise<{ list: Case; create: Case; ping: Case; canned: Record<string, { status: number; body: unknown }> }> {
  const list: Case = { name: 'list GET listRoutes', method: 'GET', path: pathOf('listRoutes'), query: '?page=1&per_page=20' };
  const listed = await fetch(`${mockUrl}${base}${list.path}${list.query}`, { headers });
  const listBody = (await listed.json()) as { result?: { routes?: { id: number; is_enabled: boolean; limits: { min_give: string } }[] } };
  if (listed.status !== 200) throw new Error(`listRoutes answered ${listed.status}: ${JSON.stringify(listBody).slice(0, 300)}`);
  const route = listBody.result?.routes?.find((r) => r.is_enabled);
  if (route === undefined) throw new Error('listRoutes lists no enabled route to quote');
  const create: Case = {
    name: 'create POST createQuote',
    method: 'POST',
    path: pathOf('createQuote'),
    query: '',
    body: JSON.stringify({ route_id: route.id, amount: route.limits.min_give }),
  };
  const quoted = await fetch(`${mockUrl}${base}${create.path}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: create.body! });
  const quoteBody: unknown = await quoted.json();
  if (quoted.status >= 300) throw new Error(`createQuote answered ${quoted.status}: ${JSON.stringify(quoteBody).slice(0, 300)}`);
  const ping: Case = { name: 'auth GET privatePing', method: 'GET', path: pathOf('privatePing'), query: '' };
  const pinged = await fetch(`${mockUrl}${base}${ping.path}`, { headers });
  const pingBody: unknown = await pinged.json();
  if (pinged.status !== 200) throw new Error(`privatePing answered ${pinged.status}: ${JSON.stringify(pingBody).slice(0, 300)}`);
  const canned = {
    [`GET ${base}${list.path}`]: { status: listed.status, body: listBody },
    [`POST ${base}${create.path}`]: { status: quoted.status, body: quoteBody },
    [`GET ${base}${ping.path}`]: { status: pinged.status, body: pingBody },
  };
  return { list, create, ping, canned };
}

export async function throughput(options: ThroughputOptions): Promise<BenchResult> {
  const durationSeconds = options.quick ? 1 : 5;
  const repeats = options.quick ? 1 : 3;
  const children: ChildServer<{ url: string }>[] = [];
  const scratch = mkdtempSync(join(tmpdir(), 'bench-throughput-'));
  try {
    const mock = await startChild<{ url: string; token: string }>(tsxNode, 'test/bench/servers/mock.ts');
    children.push(mock);
    const headers = { authorization: `Bearer ${mock.info.token}` };
    const { list, create, ping, canned } = await cases(mock.info.url, headers);
    const measured = [list, create, ping];
    const cannedFile = join(scratch, 'responses.json');
    writeFileSync(cannedFile, JSON.stringify(canned));
    /** Each server's origin plus the path its v3 operations live under. */
    const servers: { name: string; url: string }[] = [{ name: 'mock', url: mock.info.url + base }];
    for (const kind of ['node-http', 'express']) {
      const child = await startChild<{ url: string }>(tsxNode, 'test/bench/servers/baseline.ts', [kind, cannedFile]);
      children.push(child);
      servers.push({ name: kind === 'express' ? 'express 5' : 'node:http', url: child.info.url + base });
    }
    let prismSkipped: string | undefined;
    if (options.withPrism) {
      const prism = await startPrism(headers);
      if ('skipped' in prism) prismSkipped = prism.skipped;
      else {
        children.push(prism.server);
        servers.push({ name: 'prism', url: prism.server.info.url + prism.basePath });
      }
    }

    const samples = new Map<string, LoadFigures[]>();
    const requestFor = (server: { name: string; url: string }, c: Case): LoadRequest => {
      return {
        url: `${server.url}${c.path}${c.query}`,
        method: c.method,
        headers: c.body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
        ...(c.body === undefined ? {} : { body: c.body }),
      };
    };
    // A short warm-up per server and request: JIT and connection pools, not measured.
    for (const server of servers) for (const c of measured) await load(requestFor(server, c), 10, 1);
    for (let repeat = 0; repeat < repeats; repeat += 1) {
      for (const c of measured) {
        for (const connections of connectionCounts) {
          for (const server of servers) {
            const key = `${c.name}|${connections}|${server.name}`;
            const figures = await load(requestFor(server, c), connections, durationSeconds);
            samples.set(key, [...(samples.get(key) ?? []), figures]);
          }
        }
      }
    }

    const medianOf = (key: string, pick: (f: LoadFigures) => number) => median((samples.get(key) ?? []).map(pick));
    const rows = [];
    for (const c of measured) {
      for (const connections of connectionCounts) {
        const rpsOf = (name: string) => medianOf(`${c.name}|${connections}|${name}`, (f) => f.requestsPerSecond);
        for (const server of servers) {
          const key = `${c.name}|${connections}|${server.name}`;
          const all = samples.get(key) ?? [];
          rows.push({
            request: c.name,
            connections,
            server: server.name,
            'req/s': round(rpsOf(server.name)),
            'p50 ms': round(medianOf(key, (f) => f.p50Ms), 1),
            'p99 ms': round(medianOf(key, (f) => f.p99Ms), 1),
            'vs express': ratio(rpsOf(server.name), rpsOf('express 5')),
            'vs node:http': ratio(rpsOf(server.name), rpsOf('node:http')),
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
        targets: { listGetVsExpress: 1.0, listGetVsNodeHttp: 0.4 },
        ...(options.withPrism ? { prism: prismSkipped === undefined ? 'measured' : `skipped: ${prismSkipped}` } : {}),
        requests: Object.fromEntries(measured.map((c) => [c.name, `${c.method} ${base}${c.path}${c.query}${c.body === undefined ? '' : ` ${c.body}`}`])),
      },
    };
  } finally {
    for (const child of children) await child.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}
