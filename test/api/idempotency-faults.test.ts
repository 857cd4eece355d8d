/**
 * Idempotency-Key when its table fails (SPEC §2, §6): a 503 with Retry-After within the call
 * deadline (Powertools is handed the service's deadline-wrapped client), never a 500; the use
 * case's own answer wins over a failed record write or delete.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { proxiedStack } from '../support/fault-stack.js';
import { dynamoOperation, type Matcher } from '../support/fault-proxy.js';

// Proxies in front of the engines before any client is built: lib/ is imported dynamically below.
const { dynamo } = await proxiedStack();
const { invoke } = await import('../support/invoke.js');
const { seedMerchant, uniqueRef } = await import('../support/seed.js');
const { platformToken } = await import('../support/tokens.js');
const { handler: createOrder } = await import('../../functions/create-order/handler.js');
const { orderRepository } = await import('../../lib/composition/core.js');
const { dynamoClient } = await import('../../lib/composition/aws.js');
const { DEPENDENCY_TIMEOUTS } = await import('../../lib/adapters/aws/clients.js');
const { IdempotencyGuard } = await import('../../lib/http/idempotency.js');
const { dynamoFailure } = await import('../../lib/adapters/dynamodb/dynamo.js');
const { DynamoDBPersistenceLayer } = await import('@aws-lambda-powertools/idempotency/dynamodb');
const { InternalError } = await import('../../lib/core/errors.js');
const { logger } = await import('../../lib/core/ports/logger.js');

const idempotencyTable: Matcher = (r) => r.body.includes(`"${process.env.IDEMPOTENCY_TABLE}"`);
const on =
  (operation: string): Matcher =>
  (r) =>
    dynamoOperation(operation)(r) && idempotencyTable(r);

let token: string;
let outletId: string;
beforeAll(async () => {
  token = await platformToken();
  ({ outletId } = await seedMerchant());
});
afterEach(() => {
  vi.restoreAllMocks();
});

const postOrder = (key: string, target = outletId, timeoutMs = 6_000) =>
  invoke(createOrder, {
    method: 'POST',
    path: `/transactions/outlets/${target}/orders`,
    pathParameters: { outletId: target },
    token,
    body: { action: 'AUTH', amount: { currencyCode: 'AED', value: 1000 } },
    headers: { 'Idempotency-Key': key },
    timeoutMs,
  });

function expectUnavailable(response: { status: number; headers: Record<string, string>; body: any }) {
  expect(response.status, JSON.stringify(response.body)).toBe(503);
  expect(response.body.code).toBe('DEPENDENCY_UNAVAILABLE');
  expect(response.headers['Retry-After']).toBe('1');
  expect(JSON.stringify(response.body)).not.toMatch(/Idempotency|Powertools|Abort|ECONNRESET/i);
}

/** Retries as a client would, following Retry-After, for at most `ms`. */
async function retryUntilDone(call: () => Promise<Awaited<ReturnType<typeof postOrder>>>, ms: number) {
  const end = Date.now() + ms;
  for (;;) {
    const response = await call();
    if (response.status !== 409 || Date.now() > end) return response;
    await new Promise((resolve) => setTimeout(resolve, Number(response.headers['Retry-After']) * 1000));
  }
}

describe('the idempotency table unavailable', () => {
  it('every call to it failing → 503 with Retry-After, the use case never runs; the retry creates one order', async () => {
    const create = vi.spyOn(orderRepository, 'create');
    dynamo.drop(idempotencyTable, 'request', 100);
    const key = randomUUID();
    expectUnavailable(await postOrder(key));
    expect(create).not.toHaveBeenCalled();
    dynamo.heal();
    const retry = await postOrder(key);
    expect(retry.status, retry.raw).toBe(201);
    expect(create).toHaveBeenCalledTimes(1);
  });

  it('frozen → 503 within one call budget, long before the function’s own deadline (Powertools calls through the service’s deadline-wrapped client)', async () => {
    const create = vi.spyOn(orderRepository, 'create');
    dynamo.freeze(idempotencyTable);
    const key = randomUUID();
    const started = Date.now();
    // 15 s left: without the client's call budget only middy's early timeout (14.5 s) would answer.
    expectUnavailable(await postOrder(key, outletId, 15_000));
    expect(Date.now() - started).toBeLessThan(DEPENDENCY_TIMEOUTS.callBudgetMs + 1_000);
    expect(create).not.toHaveBeenCalled();
    // The frozen write lands now, after the 503, as an in-progress record that expires with the
    // abandoned invocation's remaining time: until then the key answers 409 with Retry-After.
    dynamo.thaw();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const retry = await postOrder(key);
    expect(retry.status, retry.raw).toBe(409);
    // SPEC 4.13: Retry-After says when that record expires (the abandoned invocation had 15 s), not "1".
    const retryAfter = Number(retry.headers['Retry-After']);
    expect(retryAfter).toBeGreaterThan(15 - (Date.now() - started) / 1000 - 1);
    expect(retryAfter).toBeLessThanOrEqual(15);
    expect(create).not.toHaveBeenCalled();
  });

  it('a missing table is our misconfiguration: 500, not a retry hint', async () => {
    const guard = new IdempotencyGuard(
      new DynamoDBPersistenceLayer({ tableName: 'no-such-table', keyAttr: 'pk', awsSdkV3Client: dynamoClient }),
      dynamoFailure,
    );
    const call = {
      event: { headers: { 'idempotency-key': randomUUID() }, rawPath: '/x', requestContext: { http: { method: 'POST' } } } as never,
      context: { getRemainingTimeInMillis: () => 5_000 } as never,
      principal: { kind: 'platform', subject: 'test', permissions: new Set<string>() } as const,
      rawBody: undefined,
      logger,
    };
    const work = vi.fn(async () => ({ status: 201, body: {} }));
    await expect(guard.run(call, work)).rejects.toBeInstanceOf(InternalError);
    expect(work).not.toHaveBeenCalled();
  });
});

describe('a record write failing after the use case ran', () => {
  it('the completion write lost: the client still gets its order (the work is done), not a 503', async () => {
    const create = vi.spyOn(orderRepository, 'create');
    dynamo.drop(on('UpdateItem'), 'request', 10);
    const response = await postOrder(randomUUID());
    expect(response.status, response.raw).toBe(201);
    expect(response.body.orderRef).toBeDefined();
    expect(create).toHaveBeenCalledTimes(1);
  });

  it('the release after an error lost: the use case’s own 404 comes out unchanged; the key is held until the in-progress record expires', async () => {
    dynamo.drop(on('DeleteItem'), 'request', 10);
    const key = randomUUID();
    const unknownOutlet = uniqueRef('o');
    const missing = await postOrder(key, unknownOutlet, 2_000);
    expect(missing.status, missing.raw).toBe(404);
    expect(missing.body.code).toBe('NOT_FOUND');
    dynamo.heal();
    const held = await postOrder(key, unknownOutlet);
    expect(held.status).toBe(409);
    expect(held.body.code).toBe('IDEMPOTENCY_KEY_IN_USE');
    const later = await retryUntilDone(() => postOrder(key, unknownOutlet), 5_000);
    expect(later.status).toBe(404); // ran again: errors are never stored
  });
});
