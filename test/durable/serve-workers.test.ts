// `exchange-api-kit serve --workers N` as a process on a real PostgreSQL database: N worker
// processes answer on the one port over one sandbox; the worker holding it killed with SIGKILL is
// replaced while a replica takes the sandbox over, every record still there; SIGTERM to the primary
// stops every worker and exits 0. A store processes cannot share is refused with exit code 2.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ExchangeV3Client } from '../../generated/exchange-v3/client.js';
import { binRunner, output } from '../support/bin-process.js';
import { durableEngines } from './support/durable-server.js';

const dir = mkdtempSync(join(tmpdir(), 'exchange-api-kit-workers-'));
const run = binRunner(dir);

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Resolves once what the child printed (stdout and stderr, from the start) matches `pattern`. */
function printed(child: ReturnType<typeof run>, pattern: RegExp): Promise<string> {
  let text = '';
  return new Promise((resolve, reject) => {
    const add = (chunk: string) => {
      text += chunk;
      if (pattern.test(text)) resolve(text);
    };
    child.stdout!.setEncoding('utf8').on('data', add);
    child.stderr!.setEncoding('utf8').on('data', add);
    child.once('exit', (code) => reject(new Error(`exited ${code} before printing ${pattern}: ${text}`)));
  });
}

/** `serve --workers 2` on `spec`, once both workers have printed their banners. */
async function startWorkers(spec: string) {
  const child = run(['serve', '--workers', '2', '--port', '0', '--log-level', 'silent', '--store', spec]);
  const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const started = await printed(child, /try: curl[^\n]*\n[\s\S]*as a replica|as a replica[\s\S]*try: curl[^\n]*\n/);
  const holderPid = Number(/ pid: (\d+)/.exec(started)![1]);
  const url = /listening on (http:\/\/\S+)\n  v3/.exec(started)![1]!;
  return { child, exit, started, holderPid, url };
}

describe.each(durableEngines().filter((engine) => engine.name === 'postgres'))('serve --workers on the $name engine', (engine) => {
  afterAll(() => engine.cleanUp());

  it('answers on one port; a killed holder is replaced with every record kept; SIGTERM stops all and exits 0', async () => {
    const { child, exit, started, holderPid, url } = await startWorkers(await engine.place());
    const workerPids = /pids (\d+), (\d+)\)/.exec(started)!.slice(1).map(Number);
    expect(workerPids).toContain(holderPid);
    expect(started).toContain(`listening on ${url} as a replica`);
    const token = /token: (\S+)/.exec(started)![1]!;
    // A connection per request: the kernel gives each to one worker or the other, and the
    // requests a replica gets it forwards to the holder.
    const closing: typeof fetch = (input, init) => fetch(input, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers)), connection: 'close' } });
    const v3 = new ExchangeV3Client({ baseUrl: url, token, retry: false, fetch: closing });

    const route = (await v3.listRoutes({ query: { 'filter[from]': 'BTC', 'filter[to]': 'USDTTRC20' } })).body.result.routes[0]!;
    const orders: string[] = [];
    for (let n = 0; n < 6; n += 1) {
      const body = { route_id: route.id, amount: route.limits.min_give, email: `w${n}@example.com`, requisites: { to_address: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE' } };
      orders.push((await v3.createOrder({ body})).body.result.order.public_id);
    }
    for (const order of orders) expect((await v3.getExchangeOrder({ path: { order }})).status).toBe(200);

    const replaced = printed(child, /in its place[\s\S]*took the sandbox over[\s\S]*try: curl|took the sandbox over[\s\S]*try: curl[\s\S]*in its place/);
    process.kill(holderPid, 'SIGKILL');
    const after = await replaced;
    expect(after).toContain(`worker pid ${holderPid} was killed by SIGKILL`);
    const newPid = Number(/started pid (\d+) in its place/.exec(after)![1]);
    // The token is the sandbox's: the same after the takeover, and every order is still there.
    expect(after.slice(after.indexOf('took the sandbox over'))).toContain(`token: ${token}`);
    for (const order of orders) {
      const read = await v3.getExchangeOrder({ path: { order }});
      expect(read.status).toBe(200);
      expect(read.body.result.order.public_id).toBe(order);
    }

    child.kill('SIGTERM');
    expect(await exit).toBe(0);
    const survivor = workerPids.find((pid) => pid !== holderPid)!;
    expect([survivor, newPid].filter(alive)).toEqual([]);
  }, 60_000);

  it('ends every request when the holder is killed under load: answered, or failed with it, never left waiting', async () => {
    const { child, exit, holderPid, url } = await startWorkers(await engine.place());

    // Four clients, a new connection a request, while the holder is killed: a connection the
    // primary was handing to it as it died once stayed open unanswered for good.
    const outcomes = { answered: 0, failed: 0, leftWaiting: 0 };
    let sending = true;
    const client = async () => {
      while (sending) {
        try {
          await (await fetch(`${url}/__mock/clock`, { headers: { connection: 'close' }, signal: AbortSignal.timeout(15_000) })).text();
          outcomes.answered += 1;
        } catch (error) {
          outcomes[(error as Error).name === 'TimeoutError' ? 'leftWaiting' : 'failed'] += 1;
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    const clients = Array.from({ length: 4 }, client);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    process.kill(holderPid, 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 2000));
    sending = false;
    await Promise.all(clients);
    expect(outcomes.leftWaiting).toBe(0);
    expect(outcomes.answered).toBeGreaterThan(0);

    child.kill('SIGTERM');
    expect(await exit).toBe(0);
  }, 60_000);
});

describe('serve --workers on a store one process holds', () => {
  it.each(['memory', `sqlite:${join(dir, 'one.db')}`])('--store %s exits 2 naming --workers', async (spec) => {
    const { code, stderr } = await output(run(['serve', '--workers', '2', '--port', '0', '--store', spec]));
    expect(code).toBe(2);
    expect(stderr).toContain('--workers needs --store postgres://');
  });
});
