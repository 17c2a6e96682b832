// Lets the process that started this one ask for its settled memory: with an IPC channel and
// --expose-gc (the soak starts the mock so), each 'settled-memory' message is answered with
// settledMemory(). Without them it does nothing, so the other benchmarks' mocks are unchanged.
import type { ChildProcess } from 'node:child_process';
import { settledMemory, type SettledMemory } from '../lib/settled-memory.js';

export const settledMemoryQuery = 'settled-memory';

export function answerSettledMemoryQueries(): void {
  const send = process.send?.bind(process);
  if (send === undefined || (globalThis as { gc?: unknown }).gc === undefined) return;
  process.on('message', (message) => {
    if (message === settledMemoryQuery) send(settledMemory());
  });
}

/**
 * For the parent: asks `child` (started so) for its settled memory. One query at a time, so each
 * answer is matched to its own question.
 */
export function settledMemoryOf(child: ChildProcess): () => Promise<SettledMemory> {
  let lastQuery = Promise.resolve<unknown>(undefined);
  return () => {
    const answer = lastQuery.then(
      () =>
        new Promise<SettledMemory>((resolve) => {
          child.once('message', (message) => resolve(message as SettledMemory));
          child.send(settledMemoryQuery);
        }),
    );
    lastQuery = answer;
    return answer;
  };
}
