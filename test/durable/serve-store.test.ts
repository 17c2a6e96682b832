// `exchange-api-kit serve --store sqlite:FILE` and `--store postgres://…` as a process. Killed with
// SIGKILL in the middle of a concurrent write load (orders, deposits, webhook endpoints), it starts
// again on the file or database with every record it acknowledged with a 2xx, each reading back
// whole through the API. A spec it does not understand, a file that is not a sandbox database, a
// file whose records do not fit together and a --seed that is not the stored sandbox's exit 2 with
// a message naming the flag or the file, and leave the file as it was. A second mock on a database
// another mock holds is its replica: one sandbox, taken over when the holder stops. A second mock
// on a file another mock holds exits 2 and leaves it as it was; once the holder stopped (SIGTERM)
// or was killed (kill -9), a mock starts on the file and resumes its sandbox. A mock that finds a
// page of its file damaged while it runs stops, exit 2, saying so in one line.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { ExchangeV3Client } from '../../generated/exchange-v3/client.js';
import { expectContractBody } from '../mock-server/support/contract.js';
import { send } from '../mock-server/support/http.js';
import { binRunner, output } from '../support/bin-process.js';
import { durableEngines } from './support/durable-server.js';
import { serve as serveProcess } from './support/serve-process.js';

const dir = mkdtempSync(join(tmpdir(), 'exchange-api-kit-store-'));
const run = binRunner(dir);

const serve = (spec: string, ...flags: string[]) => serveProcess(run, spec, ...flags);

describe.each(durableEngines())('serve --store on the $name engine', (engine) => {
  afterAll(() => engine.cleanUp());

  it('prints the store, and after kill -9 mid-load starts again with every record it acknowledged', async () => {
    const spec = await engine.place();
    const first = await serve(spec, '--seed', '5');
    expect(first.stdout).toContain(`store:            ${spec} (a restart on it resumes the sandbox)`);
    const route = (await first.v3.listRoutes({ query: { 'filter[from]': 'BTC', 'filter[to]': 'USDTTRC20' } })).body.result.routes[0]!;
    const acked = { orders: [] as string[], deposits: [] as string[], endpoints: [] as string[] };
    type Kind = keyof typeof acked;
    const writes: Record<Kind, (n: number) => Promise<unknown>> = {
      orders: async (n) => {
        const body = { route_id: route.id, amount: route.limits.min_give, email: `load${n}@example.com`, requisites: { to_address: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE' } };
        acked.orders.push((await first.v3.createOrder({ body })).body.result.order.public_id);
      },
      deposits: async (n) => acked.deposits.push((await first.v1.createDeposit({ body: { order_id: `ORD-load-${n}`, asset: 'TRX', amount: '50' } })).body.data.uuid),
      endpoints: async (n) => {
        const body = { name: `Load ${n}`, url: 'http://127.0.0.1:9/hook', events: ['order.created'] as ['order.created'] };
        acked.endpoints.push((await first.v3.createWebhookEndpoint({ body })).body.result.endpoint.id);
      },
    };
    // Each kind is sent this many times at the most (a client may have 10 endpoints): the load and
    // the reads after it stay well inside the key's 600 requests a minute, however much slower one
    // kind is answered than another (unbounded, a loaded CI run once exhausted it: the reads got 429).
    const most: Record<Kind, number> = { orders: 40, deposits: 40, endpoints: 10 };
    const sent: Record<Kind, number> = { orders: 0, deposits: 0, endpoints: 0 };
    const kinds = Object.keys(writes) as Kind[];
    let killed = false;
    let n = 0;
    const kill = () => {
      killed = true;
      first.kill();
    };
    const worker = async (lane: number) => {
      // Each answer that arrived is counted; the kill ends every loop with a failed connection.
      for (;;) {
        const count = n++;
        const kind = [0, 1, 2].map((step) => kinds[(lane + count + step) % kinds.length]!).find((k) => sent[k] < most[k]);
        if (kind === undefined || killed) return;
        sent[kind] += 1;
        try {
          await writes[kind](count);
        } catch (error) {
          if (killed) return;
          throw error;
        }
        // Killed once 60 writes were acknowledged, each kind among them (their shares vary with timing).
        const enough = acked.orders.length > 5 && acked.deposits.length > 5 && acked.endpoints.length > 2;
        if (!killed && enough && acked.orders.length + acked.deposits.length + acked.endpoints.length >= 60) kill();
      }
    };
    await Promise.all([0, 1, 2, 3, 4, 5].map(worker));
    if (!killed) kill(); // every write was sent and answered before 60 with each kind: killed at rest then
    await first.exit;
    expect(acked.orders.length).toBeGreaterThan(5);
    expect(acked.deposits.length).toBeGreaterThan(5);
    expect(acked.endpoints.length).toBeGreaterThan(2);

    const second = await serve(spec);
    for (const order of acked.orders) {
      const read = await second.v3.getExchangeOrder({ path: { order } });
      expect(read.status).toBe(200);
      expectContractBody('v3', 'getExchangeOrder', read.status, read.body);
    }
    for (const uuid of acked.deposits) {
      const read = await second.v1.getDeposit({ path: { uuid } });
      expect(read.status).toBe(200);
      expectContractBody('v1', 'getDeposit', read.status, read.body);
    }
    for (const webhook of acked.endpoints) {
      const read = await second.v3.getWebhookEndpoint({ path: { webhook } });
      expect(read.status).toBe(200);
      expectContractBody('v3', 'getWebhookEndpoint', read.status, read.body);
    }
    // Every record, acknowledged or not, reads back whole: the sandbox's document is of the contract.
    const state = await send(second.url, '/__mock/state');
    expect(expectContractBody('control', 'exportSandboxState', state.status, state.json)).toBe(true);
    second.kill();
  }, 60_000);
});

const postgres = durableEngines().find((engine) => engine.name === 'postgres');

describe.runIf(postgres !== undefined)('serve --store postgres://…', () => {
  afterAll(() => postgres?.cleanUp());

  it('starts a second mock on the database as a replica of the first: one sandbox, taken over when the first stops', async () => {
    const spec = await postgres!.place();
    const first = await serve(spec, '--seed', '5');
    const withPassword = spec.replace('postgres://kit@', 'postgres://kit:s3cret@');
    const child = run(['serve', '--port', '0', '--log-level', 'silent', '--store', withPassword]);
    const started = await output(child, /as a replica[\s\S]*credentials\)\n/);
    expect(started.stdout).toContain(`another mock holds the sandbox of ${spec.replace('postgres://kit@', 'postgres://kit:***@')}`);
    expect(started.stdout + started.stderr).not.toContain('s3cret');
    const replicaUrl = /listening on (http:\/\/\S+) as a replica/.exec(started.stdout)![1]!;
    const token = /token: (\S+)/.exec(first.stdout)![1]!;
    const replica = new ExchangeV3Client({ baseUrl: replicaUrl, token, retry: false });

    // A record written through one is read through the other at once; so is the clock.
    const route = (await first.v3.listRoutes({ query: { 'filter[from]': 'BTC', 'filter[to]': 'USDTTRC20' } })).body.result.routes[0]!;
    const body = { route_id: route.id, amount: route.limits.min_give, email: 'replica@example.com', requisites: { to_address: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE' } };
    const order = (await replica.createOrder({ body })).body.result.order.public_id;
    expect((await first.v3.getExchangeOrder({ path: { order } })).status).toBe(200);
    expect((await send(replicaUrl, '/__mock/clock/freeze', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })).status).toBe(200);
    const clock = await send(first.url, '/__mock/clock');
    expect((clock.json as { result: { frozen: boolean } }).result.frozen).toBe(true);

    // A replica must be of the same sandbox: another --seed is refused at start, not at a takeover.
    const otherSeed = await output(run(['serve', '--port', '0', '--store', spec, '--seed', '6']));
    expect(otherSeed.code).toBe(2);
    expect(otherSeed.stderr).toContain('--seed 6: the sandbox in');

    // The holder stops: the replica takes the sandbox over and answers on the same port.
    const tookOver = output(child, /took the sandbox over[\s\S]*try: curl .*\n/);
    first.kill();
    await first.exit;
    expect((await tookOver).stdout).toContain(`listening on ${replicaUrl}\n`);
    const read = await replica.getExchangeOrder({ path: { order } });
    expect([read.status, read.body.result.order.public_id]).toEqual([200, order]);
    const after = await send(replicaUrl, '/__mock/clock');
    expect((after.json as { result: { frozen: boolean } }).result.frozen).toBe(true);
    child.kill('SIGTERM');
    expect(await new Promise((resolve) => child.once('exit', resolve))).toBe(0);
  }, 60_000);
});

describe('serve --store sqlite:FILE', () => {
  it('exits 2 on a spec it does not understand', async () => {
    const exit = await output(run(['serve', '--port', '0', '--store', 'mysql:x']));
    expect(exit.code).toBe(2);
    expect(exit.stderr).toContain('--store is not understood: use memory, sqlite:PATH or postgres://USER@HOST:PORT/DATABASE, got "mysql:x"');
  });

  it('exits 2 on a file that is not a sandbox database, naming it and leaving it as it was', async () => {
    const file = join(dir, 'notes.txt');
    writeFileSync(file, 'not a database, just notes\n'.repeat(200));
    const exit = await output(run(['serve', '--port', '0', '--store', `sqlite:${file}`]));
    expect(exit.code).toBe(2);
    expect(exit.stderr).toContain(`--store sqlite:${file}: ${file} is not a sandbox database`);
    expect(readFileSync(file, 'utf8')).toBe('not a database, just notes\n'.repeat(200));
  });

  // The records a start reads (every kind but the v1 deposits, read when asked for).
  it('exits 2 on a file whose records do not fit together, naming it', async () => {
    const file = join(dir, 'tampered.db');
    const first = await serve(`sqlite:${file}`);
    await first.v1.createStaticAddress({ body: { orderId: 'ORD-tampered', asset: 'TRX' } });
    first.kill();
    await first.exit;
    const db = new Database(file);
    db.prepare("UPDATE journal_records SET doc = json_set(doc, '$.siteId', 999) WHERE kind = 'staticAddress'").run();
    db.close();
    const exit = await output(run(['serve', '--port', '0', '--store', `sqlite:${file}`]));
    expect(exit.code).toBe(2);
    expect(exit.stderr).toContain(`the sandbox kept in ${file} does not fit together: /deposits/staticAddresses/0/siteId`);
  });

  it.each([
    ['a record row', "UPDATE journal_records SET doc = '{' WHERE kind = 'key'", /: \/journal\/key\/\d+: is not a JSON document/],
    ['a header row', "UPDATE journal_headers SET doc = '{' WHERE name = 'exchange'", /: \/journal\/headers\/exchange: is not a JSON document/],
    ['the top header', "DELETE FROM journal_headers WHERE name = 'top'", /: \/journal\/headers\/top: is missing/],
  ])('exits 2 on a file with %s damaged, naming the file and the row', async (_what, damage, where) => {
    const file = join(dir, `damaged-${_what.replaceAll(' ', '-')}.db`);
    const first = await serve(`sqlite:${file}`);
    first.kill();
    await first.exit;
    const db = new Database(file);
    expect(db.prepare(damage).run().changes).toBeGreaterThan(0);
    db.close();
    const exit = await output(run(['serve', '--port', '0', '--store', `sqlite:${file}`]));
    expect(exit.code).toBe(2);
    expect(exit.stderr).toContain(`the sandbox kept in ${file} does not fit together`);
    expect(exit.stderr).toMatch(where);
    expect(exit.stderr).not.toMatch(/\n\s+at /);
  });

  it('stops with exit 2 in one line when it finds a page of its file damaged while it runs', async () => {
    const file = join(dir, 'damaged-page.db');
    const first = await serve(`sqlite:${file}`);
    first.kill('SIGTERM');
    await first.exit;
    // The start reads no index of the idempotency records; every timer beat's sweep reads this one.
    const db = new Database(file);
    const { rootpage } = db.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'idempotency_expiry'").get() as { rootpage: number };
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    db.close();
    const bytes = readFileSync(file);
    bytes.fill(0xff, (rootpage - 1) * pageSize, rootpage * pageSize);
    writeFileSync(file, bytes);
    const exit = await output(run(['serve', '--port', '0', '--log-level', 'silent', '--store', `sqlite:${file}`]));
    expect(exit.code).toBe(2);
    expect(exit.stderr).toContain(`exchange-api-kit serve: the sandbox file ${file} is damaged (database disk image is malformed); stopped`);
    expect(exit.stderr).not.toMatch(/\n\s+at /);
  });

  it('exits 2 on a file another mock holds, leaving it as it was; the file is free once that mock stops or is killed', async () => {
    const file = join(dir, 'held.db');
    const spec = `sqlite:${file}`;
    const first = await serve(spec, '--seed', '7');
    const uuid = (await first.v1.createDeposit({ body: { order_id: 'ORD-held', asset: 'TRX', amount: '50' } })).body.data.uuid;
    const before = await settled(file);
    // Resolves at the banner too, should the second mock start.
    const refused = await output(run(['serve', '--port', '0', '--store', spec]), /try: curl .*\n/);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`--store ${spec}: another mock holds the sandbox of ${file}: one process per file; stop it, or use another file`);
    expect(await settled(file)).toEqual(before);
    expect((await first.v1.getDeposit({ path: { uuid } })).status).toBe(200);

    // Each restart resumes the sandbox the first built: its deposit, and its seed's credentials.
    const token = /token: (\S+)/.exec(first.stdout)![1];
    for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
      const holder = signal === 'SIGTERM' ? first : await serve(spec);
      holder.kill(signal);
      await holder.exit;
      const next = await serve(spec);
      expect(/token: (\S+)/.exec(next.stdout)![1]).toBe(token);
      expect((await next.v1.getDeposit({ path: { uuid } })).status).toBe(200);
      next.kill('SIGTERM');
      await next.exit;
    }
  }, 60_000);

  it('exits 2 on a --seed that is not the stored sandbox\'s, naming the flag and the file', async () => {
    const file = join(dir, 'seeded.db');
    const first = await serve(`sqlite:${file}`, '--seed', '3');
    first.kill();
    await first.exit;
    const exit = await output(run(['serve', '--port', '0', '--store', `sqlite:${file}`, '--seed', '4']));
    expect(exit.code).toBe(2);
    expect(exit.stderr).toContain(`--seed 4: the sandbox in ${file} was built with seed 3`);
    const again = await serve(`sqlite:${file}`, '--seed', '3');
    expect(again.stdout).toContain('seed: 3');
    again.kill();
  });
});

/** The bytes of a sandbox file and its WAL once a mock on it stopped writing (a timer beat may follow an answer). */
async function settled(file: string): Promise<string[]> {
  const read = () => [readFileSync(file).toString('base64'), readFileSync(`${file}-wal`).toString('base64')];
  let last = read();
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const now = read();
    if (now.every((bytes, i) => bytes === last[i])) return now;
    last = now;
  }
}
