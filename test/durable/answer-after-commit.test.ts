// On a durable store no byte of an answer leaves before the journal write it asked for has
// committed, however long the write takes (PostgreSQL's take round trips): a mock whose journal
// write is held answers only once it is let go. A write that fails closes the connection
// unanswered, and the mock goes on answering. On each durable engine.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../generated/runtime/client-errors.js';
import type { RecordJournal } from '../../mock-server/store/record-journal.js';
import type { TestServer } from '../mock-server/support/server.js';
import { durableEngines, durablePlace } from './support/durable-server.js';

/** How long a held write is kept back: an answer that did not wait for it arrives well within this on loopback. */
const heldMs = 300;

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
    const events: string[] = [];
    let letGo!: () => void;
    const gate = new Promise<void>((resolve) => (letGo = resolve));
    let started!: () => void;
    const writeStarted = new Promise<void>((resolve) => (started = resolve));
    journal.write = async (change) => {
      started();
      await gate;
      await write(change);
      events.push('committed');
    };
    try {
      const minted = server.control.mintToken().then((answer) => {
        events.push('answered');
        return answer;
      });
      await writeStarted;
      await new Promise((resolve) => setTimeout(resolve, heldMs));
      expect(events).toEqual([]);
      letGo();
      expect((await minted).status).toBe(201);
      expect(events).toEqual(['committed', 'answered']);
    } finally {
      journal.write = write;
    }
  });

  it('is not sent when the write fails: the connection closes unanswered, and the next request is answered', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    journal.write = () => Promise.reject(new Error('the disk is full'));
    try {
      const refused = await server.control.mintToken().catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(Error);
      expect(refused).not.toBeInstanceOf(ApiError);
      expect(logged).toHaveBeenCalledWith('the sandbox journal could not be written; the answer is not sent', expect.any(Error));
    } finally {
      journal.write = write;
      logged.mockRestore();
    }
    expect((await server.control.mintToken()).status).toBe(201);
  });
});
