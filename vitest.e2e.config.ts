import { defineConfig } from 'vitest/config';

/**
 * `npm run test:e2e`: the hosted checkout in a real browser (Debian Chromium through
 * playwright-core) against the real service started with `npm start` (test/e2e/global-setup.ts).
 * Its own config: none of the main suite's setup (in-process dynalite/KMS) applies here.
 */
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.test.ts'],
    globalSetup: ['test/e2e/global-setup.ts'],
    testTimeout: 180_000,
    hookTimeout: 300_000,
    teardownTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    sequence: { concurrent: false },
  },
});
