// A store serves one mock, for the store's life. Two sandboxes on one store would each write the
// sandbox they hold over the other's (on a durable engine, records whose answers were sent are
// lost), and a mock started on a store another mock has used would meet that one's records (the
// memory engine's limits, idempotency records and webhooks; it resumes no sandbox) and any write
// of it still on its way. startMockServer marks the store it is given here; a start that fails
// gives it back, so a replica or a retry can start on it.
import type { SandboxStore } from './sandbox-store.js';

const serving = new WeakSet<SandboxStore>();

/** Marks `store` as serving a mock, or throws when it has served one already; returns what gives it back. */
export function serveOneMock(store: SandboxStore): () => void {
  if (serving.has(store)) {
    throw new Error(
      `startMockServer: the store (${store.location}) has served a mock already: a store serves one mock for its life; close that mock and the store, then open it again with openStore() for the next`,
    );
  }
  serving.add(store);
  return () => serving.delete(store);
}
