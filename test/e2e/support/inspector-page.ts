// One mock and one browser for an inspector suite: before each test the sandbox is reset with its
// clock frozen (time moves only when the page or the test advances it) and a fresh page opens
// /__mock/ui/; after it, a failing test leaves a screenshot and no test may leave a script error.
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { startTestServer, type TestServer } from '../../mock-server/support/server.js';
import { launchBrowser, openPage, screenshot } from './browser.js';

export interface InspectorSuite {
  readonly server: TestServer;
  readonly browser: Browser;
  /** The inspector page of the current test. */
  readonly page: Page;
}

/** Call inside describeInBrowser. */
export function useInspectorPage(seed: number): InspectorSuite {
  const suite = {} as { server: TestServer; browser: Browser; page: Page; errors: string[] };
  beforeAll(async () => {
    [suite.server, suite.browser] = await Promise.all([startTestServer({ seed }), launchBrowser()]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([suite.browser?.close(), suite.server?.close()]);
  });
  beforeEach(async () => {
    await suite.server.control.resetSandbox();
    await suite.server.control.freezeClock();
    suite.errors = [];
    suite.page = await openPage(suite.browser, `${suite.server.url}/__mock/ui/`, suite.errors);
  });
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail') await screenshot(suite.page, `failed-${context.task.name.replace(/\W+/g, '-')}`);
    await suite.page?.close();
    expect(suite.errors).toEqual([]);
  });
  return suite;
}
