import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Two projects, both run by `npm test`:
 * - `core`: the payment core's rules on the in-memory adapters (test/core, mirroring lib/core),
 *   and the in-memory half of the store contract. No DynamoDB, no KMS, no global setup:
 *   `npm run test:core` runs it alone in seconds.
 * - `integration`: everything else, over real sockets to the dynalite (or DynamoDB Local) and
 *   KMS servers that the global setup starts once per run; each file gets its own tables.
 * The store contract (test/adapters/store-contract.test.ts) runs in both, against the engine
 * the project provides, so the in-memory and the DynamoDB stores meet the same assertions.
 */
/**
 * What the DynamoDB engine cannot change, run once (by `npm test`), not again on DynamoDB Local:
 * the smoke tests (`npm start` runs on dynalite either way), the deploy checks (they package),
 * the local tools' tests and the architecture check.
 */
const ENGINE_INDEPENDENT = ['test/smoke/**', 'test/deploy/**', 'test/local/**', 'test/architecture/**'];

export default defineConfig({
  test: {
    // One worker more than cores (vitest's default is one fewer): most of the integration
    // files' time is waiting (deadlines, in-flight windows, a stack starting), not CPU, so a
    // third worker on 2 cores runs while two wait. The timing-sensitive tests take their
    // deadlines from the service, not from the machine's share of CPU.
    maxWorkers: availableParallelism() + 1,
    projects: [
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
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          exclude: ['test/e2e/**', 'test/core/**', ...(process.env.TEST_DYNAMODB_ENGINE === 'dynamodb-local' ? ENGINE_INDEPENDENT : [])],
          provide: { storeEngine: 'dynamodb' },
          globalSetup: ['test/support/global-setup.ts'],
          setupFiles: ['test/support/env.ts', 'test/support/service-logs.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
          pool: 'forks',
        },
      },
    ],
  },
});
