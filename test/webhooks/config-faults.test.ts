/**
 * 4.15 through a fault proxy in front of KMS and DynamoDB: a KMS that refuses connections or
 * does not answer is a 503 with Retry-After well within the config functions' 6 s, stores
 * nothing half-done, and the retry succeeds.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { proxiedStack } from '../support/fault-stack.js';
import { dynamoOperation, kmsOperation } from '../support/fault-proxy.js';

// Proxies in front of the engines before any client is built: lib/ is imported dynamically below.
const { dynamo, kms } = await proxiedStack();
const { seedMerchant } = await import('../support/seed.js');
const { platformToken } = await import('../support/tokens.js');
const { invoke } = await import('../support/invoke.js');
const { handler: putHandler } = await import('../../functions/put-webhook-config/handler.js');
const { handler: getHandler } = await import('../../functions/get-webhook-config/handler.js');
const { handler: rotateHandler } = await import('../../functions/rotate-webhook-secret/handler.js');

const CONFIG_DEADLINE_MS = 5_000;
const HOOK = 'http://127.0.0.1:8080/webhooks';
let token: string;
beforeAll(async () => {
  token = await platformToken();
});

const path = (merchantRef: string) => `/config/merchants/${merchantRef}/configs/webhooks`;
const call = (handler: typeof putHandler, method: string, merchantRef: string, suffix = '', body?: unknown) =>
  invoke(handler, { method, path: path(merchantRef) + suffix, pathParameters: { merchantRef }, token, body, timeoutMs: 6_000 });
const put = (merchantRef: string) => call(putHandler, 'PUT', merchantRef, '', { url: HOOK });
const get = (merchantRef: string) => call(getHandler, 'GET', merchantRef);
const rotate = (merchantRef: string) => call(rotateHandler, 'POST', merchantRef, '/rotate-secret');

function expectUnavailable(response: { status: number; headers: Record<string, string>; body: any }) {
  expect(response.status, JSON.stringify(response.body)).toBe(503);
  expect(response.body.code).toBe('DEPENDENCY_UNAVAILABLE');
  expect(Number(response.headers['Retry-After'])).toBeGreaterThanOrEqual(1);
  expect(JSON.stringify(response.body)).not.toMatch(/whsec_|Encrypt|ECONN|socket/i);
}

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = Date.now();
  const result = await work();
  return { result, ms: Date.now() - started };
}

describe('4.15 with KMS unavailable', () => {
  it('KMS unreachable (every Encrypt reset) → 503, nothing stored, then the retry creates the secret', async () => {
    const { merchantRef } = await seedMerchant();
    const puts = dynamo.count(dynamoOperation('PutItem'));
    kms.drop(kmsOperation('Encrypt'), 'request', 10);
    expectUnavailable(await put(merchantRef));
    expect(kms.count(kmsOperation('Encrypt'))).toBeGreaterThanOrEqual(1);
    expect(dynamo.count(dynamoOperation('PutItem'))).toBe(puts);
    kms.heal();
    expect((await get(merchantRef)).status).toBe(404);
    const retry = await put(merchantRef);
    expect(retry.status).toBe(200);
    expect(retry.body.signingSecret).toMatch(/^whsec_/);
  });

  it('KMS frozen during a rotation → 503 within 5 s; the configuration is unchanged; GET needs no KMS', async () => {
    const { merchantRef } = await seedMerchant();
    expect((await put(merchantRef)).status).toBe(200);
    const before = (await get(merchantRef)).body;
    kms.freeze();
    const { result, ms } = await timed(() => rotate(merchantRef));
    expectUnavailable(result);
    expect(ms).toBeLessThan(CONFIG_DEADLINE_MS);
    const encryptsSoFar = kms.count(kmsOperation('Encrypt'));
    expect((await get(merchantRef)).body).toEqual(before);
    expect(kms.count(kmsOperation('Encrypt'))).toBe(encryptsSoFar);
    kms.thaw();
    const retry = await rotate(merchantRef);
    expect(retry.status).toBe(200);
    expect((await get(merchantRef)).body.secretRotatedAt).toEqual(expect.any(String));
  });

  it('DynamoDB frozen → 503 within 5 s for the GET', async () => {
    const { merchantRef } = await seedMerchant();
    expect((await put(merchantRef)).status).toBe(200);
    dynamo.freeze();
    const { result, ms } = await timed(() => get(merchantRef));
    expectUnavailable(result);
    expect(ms).toBeLessThan(CONFIG_DEADLINE_MS);
    dynamo.thaw();
    expect((await get(merchantRef)).status).toBe(200);
  });
});
