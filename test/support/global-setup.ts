import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalStack, type LocalStack } from '../../infra/local/stack.js';

/**
 * One in-memory dynalite and one KMS server for the whole run, on random ports, reached
 * over real sockets by the production clients. Test workers inherit the environment.
 */
let stack: LocalStack | undefined;
let dataDir: string | undefined;

export async function setup(): Promise<void> {
  dataDir = await mkdtemp(join(tmpdir(), 'ctp-test-'));
  for (const name of ['PAYLOAD_KEY_IDS', 'NETWORK_JWKS_URLS', 'AUTH_ISSUER', 'AUTH_AUDIENCE', 'AUTH_JWKS_URL', 'SANDBOX_NETWORK_SIGNING_JWKS_URL', 'CLICK_TO_PAY_SDK_URLS']) delete process.env[name];
  stack = await startLocalStack({ dataDir, persist: false, tablePrefix: 'test' });
  Object.assign(process.env, stack.env, {
    TEST_DATA_DIR: dataDir,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'error',
    PUBLIC_BASE_URL: 'https://pay.test.example',
  });
}

export async function teardown(): Promise<void> {
  await stack?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}
