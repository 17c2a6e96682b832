// The memory this process holds once garbage is collected (needs node --expose-gc): what a
// process keeps, rather than what it has not yet freed.
export interface SettledMemory {
  rss: number;
  /** The JS heap in use, with the memory of Buffers and ArrayBuffers outside it. */
  heap: number;
}

export function settledMemory(): SettledMemory {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (collect === undefined) throw new Error('run with --expose-gc');
  // A few passes: objects with finalizers or weak references go on the later ones.
  for (let i = 0; i < 3; i += 1) collect();
  const usage = process.memoryUsage();
  return { rss: usage.rss, heap: usage.heapUsed + usage.external + usage.arrayBuffers };
}
