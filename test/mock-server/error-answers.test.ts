// The error handler (mock-server/http/error-handler.ts) answers every failure in its family's
// format, even when rendering that answer fails itself. Over real HTTP, with the sandbox clock
// throwing as it did past year 275760 (`RangeError: Invalid time value`): the control API
// answered express's HTML 500 page, with file paths, and a v3 request ended the process.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { errorCodeOf, expectFamilyResponse } from './support/contract.js';
import { send } from './support/http.js';
import { startTestServer, type TestServer } from './support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ seed: 5 });
});
afterAll(() => server.close());

describe('an error answer that cannot be rendered on the sandbox clock', () => {
  it.each([
    ['the control API (the express app)', '/__mock/clock', 'v3', 'internal_error'],
    ['v3 (the front door)', '/api/v3/ping', 'v3', 'internal_error'],
    ['v1 (the front door)', '/v1/public/assets', 'v1', 'INTERNAL_ERROR'],
  ] as const)('is still a 500 in the family format: %s', async (_where, path, family, code) => {
    const reported = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const clock = vi.spyOn(server.sandbox.clock, 'nowMs').mockImplementation(() => {
      throw new RangeError('Invalid time value');
    });
    try {
      const response = await send(server.url, path);
      expect(response.status, response.text.slice(0, 300)).toBe(500);
      expect(response.contentType).toMatch(/^application\/json/);
      expectFamilyResponse(family, response, path);
      expect(errorCodeOf(response.json)).toBe(code);
      expect(response.text).not.toMatch(/RangeError|node_modules/);
      expect(reported).toHaveBeenCalled();
    } finally {
      clock.mockRestore();
      reported.mockRestore();
    }
    // The process goes on serving.
    expect((await send(server.url, '/api/v3/ping')).status).toBe(200);
  });
});
