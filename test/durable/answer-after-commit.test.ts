// On a durable store no byte of an answer leaves before the journal write it asked for has
// committed, however long the write takes (PostgreSQL's take round trips): a mock whose journal
// write, whose clock setting's save, or whose idempotency record's write is held answers only
// once it is let go. A write or a save that fails closes the connection unanswered, and the mock
// goes on answering (the clock's setting saved again with the next answer). On each durable engine.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../generated/runtime/client-errors.js';
import type { RecordJournal } from '../../mock-server/store/record-journal.js';
import type { TestServer } from '../mock-server/support/server.js';
import { durableEngines, durablePlace } from './support/durable-server.js';

/** How long a held write is kept back: an answer that did not wait for it arrives well within this on loopback. */
const heldMs = 300;

/**
 * `work` held back until let go: answerOf(request) sends the request, checks that no answer came
 * while the work it started was held for heldMs, lets it go, and gives the answer's status once
 * it has come, after the work finished.
 */
function holdEach<A>(work: (argument: A) => Promise<void>) {
  const events: string[] = [];
  let letGo!: () => void;
  const gate = new Promise<void>((resolve) => (letGo = resolve));
  let started!: () => void;
  const workStarted = new Promise<void>((resolve) => (started = resolve));
  return {
    work: async (argument: A) => {
      started();
      await gate;
      await work(argument);
      events.push('done');
    },
    answerOf: async (request: () => Promise<{ status: number }>): Promise<number> => {
      const answered = request().then((answer) => {
        events.push('answered');
        return answer;
      });
      await workStarted;
      await new Promise((resolve) => setTimeout(resolve, heldMs));
      expect(events).toEqual([]);
      letGo();
      const { status } = await answered;
      expect(events).toEqual(['done', 'answered']);
      return status;
    },
  };
}

describe.each(durableEngines())('an answer on the $name engine', (engine) => {
  let server: TestServer;
  let journal: RecordJournal;
  let write: RecordJournal['write'];
  beforeAll(async () => {
    server = await (await durablePlace(engine)).start();
    server.sandbox.stopDispatching();
    journal = server.sandbox.store.journal!;
    write = journal.write.bind(journal);
  });
  afterAll(async () => {
    await server?.close();
    await engine.cleanUp();
  });

  it('leaves only once the journal write it asked for has committed', async () => {
    const held = holdEach((change: Parameters<RecordJournal['write']>[0]) => write(change));
    journal.write = held.work;
    try {
      expect(await held.answerOf(() => server.control.mintToken())).toBe(201);
    } finally {
      journal.write = write;
    }
  });

  it("of a clock change leaves only once the clock's setting is kept", async () => {
    const clockStore = server.sandbox.store.clock;
    const save = clockStore.save.bind(clockStore);
    const held = holdEach(save);
    clockStore.save = held.work;
    try {
      expect(await held.answerOf(() => server.control.freezeClock())).toBe(200);
    } finally {
      clockStore.save = save;
    }
    expect((await clockStore.load())?.frozenAtMs).toBe(server.sandbox.clock.nowMs());
  });

  it('with an Idempotency-Key leaves only once the record that replays it is kept', async () => {
    const idempotency = server.sandbox.store.idempotency;
    const complete = idempotency.complete.bind(idempotency);
    const held = holdEach((args: Parameters<typeof complete>) => complete(...args));
    idempotency.complete = (...args) => held.work(args);
    const route = (await server.v3.listRoutes({ query: { 'filter[from]': 'BTC', 'filter[to]': 'USDTTRC20' } })).body.result.routes[0]!;
    const body = { route_id: route.id, amount: route.limits.min_give, email: 'kept@example.com', requisites: { to_address: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE' } };
    const create = () => server.v3.createOrder({ body, headers: { 'Idempotency-Key': 'kept-before-answer-1' } });
    try {
      expect(await held.answerOf(create)).toBe(201);
    } finally {
      idempotency.complete = complete;
    }
    expect((await create()).headers.get('idempotent-replayed')).toBe('true');
  });

  it('is not sent when the write fails: the connection closes unanswered, and the next request is answered', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    journal.write = () => Promise.reject(new Error('the disk is full'));
    try {
      const refused = await server.control.mintToken().catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(Error);
      expect(refused).not.toBeInstanceOf(ApiError);
      expect(logged).toHaveBeenCalledWith('what the answer tells of could not be stored; it is not sent', expect.any(Error));
    } finally {
      journal.write = write;
      logged.mockRestore();
    }
    expect((await server.control.mintToken()).status).toBe(201);
  });
  it("of a clock change is not sent when the setting's save fails, and the next answer saves it again", async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const clockStore = server.sandbox.store.clock;
    const save = clockStore.save.bind(clockStore);
    await server.control.resumeClock();
    const before = server.sandbox.clock.setting().offsetMs;
    clockStore.save = () => Promise.reject(new Error('the disk is full'));
    try {
      const refused = await server.control.advanceClock({ body: { seconds: 3_600 } }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(Error);
      expect(refused).not.toBeInstanceOf(ApiError);
      expect(logged).toHaveBeenCalledWith('the clock setting could not be stored', expect.any(Error));
    } finally {
      clockStore.save = save;
      logged.mockRestore();
    }
    expect((await server.control.mintToken()).status).toBe(201);
    expect((await clockStore.load())?.offsetMs).toBe(before + 3_600_000);
  });
});
