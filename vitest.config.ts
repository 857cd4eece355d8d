import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Three projects, all run by `npm test`:
 * - `core`: the payment core's rules on the in-memory adapters (test/core, mirroring lib/core),
 *   and the in-memory half of the store contract. No DynamoDB, no KMS, no global setup:
 *   `npm run test:core` runs it alone in seconds.
 * - `integration`: everything else but the smoke tests, over real sockets to the dynalite (or
 *   DynamoDB Local) and KMS servers that the global setup starts once per run; each file gets
 *   its own tables.
 * - `smoke`: the files that start the whole local service (`npm start`, `npm run bench`,
 *   `npm run load`) and drive it over HTTP as a user does.
 * The store contract (test/adapters/store-contract.test.ts) runs in both of the first two,
 * against the engine the project provides, so the in-memory and the DynamoDB stores meet the
 * same assertions.
 *
 * Order and workers. `core` and `integration` run together on one worker more than cores
 * (vitest's default is one fewer): most of their time is waiting (deadlines, in-flight windows),
 * not CPU. The smoke files run after them, one at a time, with nothing else on the machine:
 * each is a whole stack (serverless-offline with a worker thread per concurrent request,
 * dynalite, the KMS server), and next to two other test workers on 2 cores a request inside
 * serverless-offline was seen to go unanswered (docs/testing.md "How long, and why").
 */
/**
 * What the DynamoDB engine cannot change, run once (by `npm test`), not again on DynamoDB Local:
 * the deploy checks (they package), the local tools' tests and the architecture check. (The
 * smoke tests are their own project, which `npm run test:dynamodb-local` does not run.)
 */
const ENGINE_INDEPENDENT = ['test/deploy/**', 'test/local/**', 'test/architecture/**'];
const SMOKE = ['test/smoke/**/*.test.ts'];
const IN_PARALLEL = availableParallelism() + 1;

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'smoke',
          include: SMOKE,
          provide: { storeEngine: 'dynamodb' },
          globalSetup: ['test/support/global-setup.ts'],
          setupFiles: ['test/support/env.ts', 'test/support/service-logs.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
          pool: 'forks',
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'core',
          include: ['test/core/**/*.test.ts', 'test/adapters/store-contract/**/*.test.ts'],
          provide: { storeEngine: 'memory' },
          setupFiles: ['test/support/service-logs.ts'],
          testTimeout: 10_000,
          pool: 'threads',
          // Nothing here touches process-wide state but the metrics recorder, which each test that
          // reads it installs anew: files share a worker's modules (and its one payload key pair).
          isolate: false,
          maxWorkers: IN_PARALLEL,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          exclude: ['test/e2e/**', 'test/core/**', ...SMOKE, ...(process.env.TEST_DYNAMODB_ENGINE === 'dynamodb-local' ? ENGINE_INDEPENDENT : [])],
          provide: { storeEngine: 'dynamodb' },
          globalSetup: ['test/support/global-setup.ts'],
          setupFiles: ['test/support/env.ts', 'test/support/service-logs.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
          pool: 'forks',
          maxWorkers: IN_PARALLEL,
          sequence: { groupOrder: 0 },
        },
      },
    ],
  },
});
