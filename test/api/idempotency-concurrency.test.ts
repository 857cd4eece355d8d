/**
 * Idempotency-Key under concurrency and over time (SPEC 4.13): a request still running answers
 * 409 IDEMPOTENCY_KEY_IN_USE with Retry-After, many at once create one order, and after 24 h
 * the key runs again.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { handler as createOrder } from '../../functions/create-order/handler.js';
import { orderRepository } from '../../lib/composition/core.js';
import { IDEMPOTENCY_WINDOW_SECONDS } from '../../lib/http/idempotency.js';
import { invoke } from '../support/invoke.js';
import { seedMerchant, type SeededMerchant } from '../support/seed.js';
import { platformToken } from '../support/tokens.js';

let seeded: SeededMerchant;
const order = { action: 'PURCHASE', amount: { currencyCode: 'AED', value: 2500 } };

const postOrder = (key: string, token: string, timeoutMs?: number) =>
  invoke(createOrder, {
    method: 'POST',
    path: `/transactions/outlets/${seeded.outletId}/orders`,
    pathParameters: { outletId: seeded.outletId },
    token,
    body: order,
    headers: { 'Idempotency-Key': key },
    ...(timeoutMs ? { timeoutMs } : {}),
  });

/** Holds the next order write until released; `entered` resolves once the use case is inside it. */
function holdNextCreate() {
  const original = orderRepository.create.bind(orderRepository);
  let release!: () => void;
  let entered!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const inside = new Promise<void>((resolve) => (entered = resolve));
  const spy = vi.spyOn(orderRepository, 'create').mockImplementationOnce(async (...args) => {
    entered();
    await gate;
    return original(...args);
  });
  return { spy, release, inside };
}

beforeAll(async () => {
  seeded = await seedMerchant();
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('a request still running', () => {
  it('answers a second one 409 IDEMPOTENCY_KEY_IN_USE with Retry-After; once it finished, the replay works', async () => {
    const token = await platformToken();
    const key = randomUUID();
    const held = holdNextCreate();
    const first = postOrder(key, token);
    await held.inside;
    const second = await postOrder(key, token);
    expect(second.status, second.raw).toBe(409);
    expect(second.body.code).toBe('IDEMPOTENCY_KEY_IN_USE');
    // When the first one's record can have finished or expired: its invocation had 15 s.
    expect(Number(second.headers['Retry-After'])).toBeGreaterThanOrEqual(13);
    expect(Number(second.headers['Retry-After'])).toBeLessThanOrEqual(15);
    held.release();
    const done = await first;
    expect(done.status, done.raw).toBe(201);
    const third = await postOrder(key, token);
    expect(third.status).toBe(201);
    expect(third.body).toEqual(done.body);
    expect(third.headers['Idempotent-Replayed']).toBe('true');
    expect(held.spy).toHaveBeenCalledTimes(1);
  });

  it('holds the key only for the Lambda’s remaining time: an abandoned in-progress record expires', async () => {
    const token = await platformToken();
    const key = randomUUID();
    const held = holdNextCreate();
    // A function with 1.5 s left: its in-progress record expires then, whatever became of it.
    const abandoned = postOrder(key, token, 1_500);
    await held.inside;
    expect((await postOrder(key, token)).status).toBe(409);
    await new Promise((resolve) => setTimeout(resolve, 1_700));
    const retried = await postOrder(key, token);
    expect(retried.status, retried.raw).toBe(201);
    expect(retried.headers['Idempotent-Replayed']).toBeUndefined();
    held.release();
    await abandoned;
  });
});

describe('Retry-After on IDEMPOTENCY_KEY_IN_USE (SPEC 4.13)', () => {
  it('says when the held key is free: a client that waits exactly that long gets through, one that waits 1 s does not', async () => {
    const token = await platformToken();
    const key = randomUUID();
    const held = holdNextCreate();
    // Abandoned with 3 s left (a stalled invocation): its record frees the key then, not sooner.
    const abandoned = postOrder(key, token, 3_000);
    await held.inside;
    const busy = await postOrder(key, token);
    const busyAt = Date.now();
    expect(busy.body.code).toBe('IDEMPOTENCY_KEY_IN_USE');
    const retryAfter = Number(busy.headers['Retry-After']);
    expect(retryAfter).toBeGreaterThanOrEqual(2);
    expect(retryAfter).toBeLessThanOrEqual(3);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect((await postOrder(key, token)).status).toBe(409); // "1" would have been a wasted retry
    await new Promise((resolve) => setTimeout(resolve, busyAt + retryAfter * 1_000 - Date.now() + 50));
    const retried = await postOrder(key, token);
    expect(retried.status, retried.raw).toBe(201);
    held.release();
    await abandoned;
  });

  it('shrinks as the held request ages: a later 409 names a shorter wait', async () => {
    const token = await platformToken();
    const key = randomUUID();
    const held = holdNextCreate();
    const running = postOrder(key, token, 6_000);
    await held.inside;
    const early = Number((await postOrder(key, token)).headers['Retry-After']);
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const later = Number((await postOrder(key, token)).headers['Retry-After']);
    expect(early).toBeGreaterThanOrEqual(5);
    expect(later).toBeLessThanOrEqual(early - 2);
    held.release();
    expect((await running).status).toBe(201);
  });
});

describe('20 concurrent requests with one key', () => {
  it('create exactly one order; the others are 409 or replays of it', async () => {
    const token = await platformToken();
    const key = randomUUID();
    const create = vi.spyOn(orderRepository, 'create');
    const responses = await Promise.all(Array.from({ length: 20 }, () => postOrder(key, token)));
    expect(create).toHaveBeenCalledTimes(1);
    const fresh = responses.filter((r) => r.status === 201 && r.headers['Idempotent-Replayed'] === undefined);
    expect(fresh).toHaveLength(1);
    for (const response of responses) {
      if (response === fresh[0]) continue;
      if (response.status === 409) {
        expect(response.body.code).toBe('IDEMPOTENCY_KEY_IN_USE');
        expect(Number(response.headers['Retry-After'])).toBeGreaterThanOrEqual(1);
        expect(Number(response.headers['Retry-After'])).toBeLessThanOrEqual(15);
      } else {
        expect(response.status, response.raw).toBe(201);
        expect(response.headers['Idempotent-Replayed']).toBe('true');
        expect(response.body).toEqual(fresh[0]!.body);
      }
    }
  });
});

describe('24 hours', () => {
  it('a key answers the stored response until 24 h have passed, then runs again', async () => {
    const create = vi.spyOn(orderRepository, 'create');
    const key = randomUUID();
    const start = Date.now();
    const first = await postOrder(key, await platformToken());
    expect(first.status).toBe(201);

    vi.useFakeTimers({ toFake: ['Date'], now: start + (IDEMPOTENCY_WINDOW_SECONDS - 60) * 1000 });
    const stillStored = await postOrder(key, await platformToken());
    expect(stillStored.headers['Idempotent-Replayed']).toBe('true');
    expect(stillStored.body).toEqual(first.body);

    vi.setSystemTime(start + (IDEMPOTENCY_WINDOW_SECONDS + 2) * 1000);
    const expired = await postOrder(key, await platformToken());
    expect(expired.status, expired.raw).toBe(201);
    expect(expired.headers['Idempotent-Replayed']).toBeUndefined();
    expect(expired.body.orderRef).not.toBe(first.body.orderRef);
    expect(create).toHaveBeenCalledTimes(2);
    const again = await postOrder(key, await platformToken());
    expect(again.body).toEqual(expired.body);
  });
});
