// Lets the process that started this one ask for its settled memory: with an IPC channel and
// --expose-gc (the soak starts the mock so), each 'settled-memory' message is answered with
// settledMemory(). Without them it does nothing, so the other benchmarks' mocks are unchanged.
import { settledMemory } from '../lib/settled-memory.js';

export const settledMemoryQuery = 'settled-memory';

export function answerSettledMemoryQueries(): void {
  const send = process.send?.bind(process);
  if (send === undefined || (globalThis as { gc?: unknown }).gc === undefined) return;
  process.on('message', (message) => {
    if (message === settledMemoryQuery) send(settledMemory());
  });
}
