import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalStack, type LocalStack } from '../../infra/local/stack.js';
import { parseDynamoEngine } from '../../infra/local/local-processes.js';

/**
 * One in-memory DynamoDB and one KMS server for the whole run, each a process of its own on a
 * random port, reached over real sockets by the production clients. Test workers inherit the
 * environment. TEST_DYNAMODB_ENGINE=dynamodb-local runs the suite on AWS's DynamoDB Local
 * (Java) instead of dynalite: `npm run test:dynamodb-local`.
 */
let stack: LocalStack | undefined;
let dataDir: string | undefined;

export async function setup(): Promise<void> {
  dataDir = await mkdtemp(join(tmpdir(), 'ctp-test-'));
  for (const name of [
    'PAYLOAD_KEY_IDS',
    'PAYLOAD_KEY_NETWORK_KIDS',
    'WEBHOOK_SECRETS_KEY_ID',
    'NETWORK_JWKS_URLS',
    'AUTH_ISSUER',
    'AUTH_AUDIENCE',
    'AUTH_JWKS_URL',
    'SANDBOX_NETWORK_SIGNING_JWKS_URL',
    'CLICK_TO_PAY_SDK_URLS',
  ])
    delete process.env[name];
  const dynamoEngine = parseDynamoEngine(process.env.TEST_DYNAMODB_ENGINE, 'TEST_DYNAMODB_ENGINE');
  stack = await startLocalStack({ dataDir, persist: false, tablePrefix: 'test', dynamoEngine });
  if (dynamoEngine !== 'dynalite') process.stderr.write(`tests run on ${dynamoEngine} at ${stack.dynamoEndpoint}\n`);
  // The smoke tests' own `npm start` (and the bench) run on the same engine: the whole suite.
  process.env.LOCAL_DYNAMODB_ENGINE ??= dynamoEngine;
  Object.assign(process.env, stack.env, {
    TEST_DATA_DIR: dataDir,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'error',
    PUBLIC_BASE_URL: 'https://pay.test.example',
    // Tests flip enablement and expect the next request to see it; the cache has its own tests.
    CONFIG_CACHE_SECONDS: '0',
  });
}

export async function teardown(): Promise<void> {
  await stack?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}
