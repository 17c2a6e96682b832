import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Loading and compiling the contracts dominates a suite's start; keep each file's budget generous.
    testTimeout: 30_000,
    // Setup hooks generate the contracts, start servers or a PostgreSQL cluster: on a busy 2-core
    // machine that can pass vitest's default of 10 s.
    hookTimeout: 60_000,
  },
});
