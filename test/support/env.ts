import { randomBytes } from 'node:crypto';
import { ensureTables } from '../../infra/local/stack.js';

// Runs in every test file's module graph before the file itself: each file gets its own
// tables, so tests that flip the (global) platform configuration cannot disturb others.
if (!process.env.TEST_DATA_DIR || !process.env.DYNAMODB_ENDPOINT) {
  throw new Error('test environment missing: run the tests with `npm test` (vitest.config.ts global setup)');
}
Object.assign(process.env, await ensureTables(process.env.DYNAMODB_ENDPOINT, `t${randomBytes(5).toString('hex')}`));
