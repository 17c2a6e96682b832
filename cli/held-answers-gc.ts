// V8 pretenures an allocation site (makes its objects in the old generation from then on) once
// every object it made since the last scavenge was still alive at it. On a durable store each
// answer waits for its journal write to commit (mock-server/http/journal-before-answer.ts), so a
// scavenge that falls in a slow commit finds a whole turn's answers alive, and a site they were
// made at (seen: the array holding an answer's bytes) is pretenured for good. Its objects, dead
// an instant later, then sit in the old generation until a full collection, and everything they
// point to (the answer's head, body and response) is kept through every scavenge meanwhile: in
// paired runs on PostgreSQL and on SQLite, scavenges of 4–5 ms instead of 1.5–2, and on
// PostgreSQL 21 % more CPU a route list and 62 % more a quote POST (docs/performance.md). Nothing
// the mock makes gains enough from the heuristic to pay for that, so a `serve` on a durable store
// turns it off for its process, before the store's sandbox is read. A store without a journal
// (memory) holds no answer and keeps V8's default.
import { setFlagsFromString } from 'node:v8';
import type { SandboxStore } from '../mock-server/store/sandbox-store.js';

/** Call before the mock starts on `store`: the same test as the app's for holding answers (a journal). */
export function keepHeldAnswersYoung(store: Pick<SandboxStore, 'journal'>): void {
  if (store.journal !== undefined) setFlagsFromString('--no-allocation-site-pretenuring');
}
