import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // The package's own name, as the tests import it, means its sources here (tsconfig.json's
    // "paths" says the same to tsc); the packed package is tested as installed in
    // test/library/installed-package.test.ts.
    alias: [
      { find: /^exchange-api-kit$/, replacement: fileURLToPath(new URL('./index.ts', import.meta.url)) },
      { find: /^exchange-api-kit\/conformance$/, replacement: fileURLToPath(new URL('./conformance/index.ts', import.meta.url)) },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    // Loading and compiling the contracts dominates a suite's start; keep each file's budget generous.
    testTimeout: 30_000,
    // Setup hooks generate the contracts, start servers or a PostgreSQL cluster: on a busy 2-core
    // machine that can pass vitest's default of 10 s.
    hookTimeout: 60_000,
  },
});
