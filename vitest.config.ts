import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Loading and compiling the contracts dominates a suite's start; keep each file's budget generous.
    testTimeout: 30_000,
  },
});
