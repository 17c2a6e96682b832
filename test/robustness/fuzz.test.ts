// The fuzz of issue 9 against the running mock (strict mode): for every v3 and v1 operation,
// requests from test/mock-server/support/bad-input.ts — hostile path, query and header values,
// malformed JSON, and bodies of the operation's own schema with one mutation (schema-bodies.ts).
// Every answer: no 5xx, an envelope (or v1 body) with a code of the family's catalog, and a
// rejected request (4xx) changes nothing an inspector sees (record counts of every domain and
// the caller's webhook endpoints).
// ROBUSTNESS_FUZZ_RUNS cases per operation (default 10, CI); e.g. 100 locally is ~9,000 cases.
// The control API's own fuzz (it resets and moves the clock) is in test/mock-server/bad-input.test.ts.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { badRequests, checkAnswer, sendAs } from '../mock-server/support/bad-input.js';
import { families, type FamilyName } from '../mock-server/support/contract.js';
import { startTestServer, type TestServer } from '../mock-server/support/server.js';
import { unlimited } from './support/limits.js';

const numRuns = Number(process.env.ROBUSTNESS_FUZZ_RUNS ?? 10);

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ seed: 29 });
  server.sandbox.stopDispatching();
  // Thousands of requests in a minute: the default key's rate limit would answer 429 to most.
  unlimited(server.sandbox.defaultKey);
});
afterAll(async () => {
  await server.close();
});

/** What the inspector shows of the sandbox (record counts), plus the default client's webhook endpoints. */
async function snapshot(): Promise<Record<string, number>> {
  const state = await server.control.getInspectorState({ query: { limit: 1 } });
  expect(state.status).toBe(200);
  const endpoints = await server.sandbox.webhooks.store.countEndpoints(String(server.sandbox.defaultKey.client.id));
  return { ...state.body.result.counts, webhook_endpoints: endpoints };
}

describe.each(['v3', 'v1'] as FamilyName[])('fuzzed requests to every %s operation', (family) => {
  it.each(families[family].routes.map((route) => [route.operationId, route] as const))('%s', async (operationId, route) => {
    await fc.assert(
      fc.asyncProperty(badRequests(family, route), fc.boolean(), async (request, signV1) => {
        const before = await snapshot();
        const response = await sendAs(server, family, request, signV1);
        checkAnswer(family, route, request, response);
        if (response.status >= 400) expect(await snapshot(), `${operationId}: a ${response.status} changed the state: ${request.describe}`).toEqual(before);
      }),
      { numRuns },
    );
    expect(Object.prototype).not.toHaveProperty('polluted');
  });
});
