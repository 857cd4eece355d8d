/**
 * Idempotency-Key (SPEC 4.13): replay, reuse with another request, header syntax, scope, and
 * errors that are never stored. Concurrency and expiry: idempotency-concurrency.test.ts; what
 * the table holds: idempotency-storage.test.ts; a failing table: idempotency-faults.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { handler as createOrder } from '../../functions/create-order/handler.js';
import { handler as getOrder } from '../../functions/get-order/handler.js';
import { handler as createSession } from '../../functions/create-hosted-session/handler.js';
import { handler as payClickToPay } from '../../functions/pay-click-to-pay/handler.js';
import { handler as payDirect } from '../../functions/pay-direct/handler.js';
import { handler as putPlatformMethods } from '../../functions/put-platform-payment-methods/handler.js';
import { handler as putTenantMethods } from '../../functions/put-tenant-payment-methods/handler.js';
import { configRepository, orderRepository } from '../../lib/composition/core.js';
import { checkoutResponse } from '../support/checkout.js';
import { invoke } from '../support/invoke.js';
import { seedMerchant, seedWorld, setPlatform, uniqueRef, type SeededMerchant } from '../support/seed.js';
import { sessionTokenFor } from '../support/sessions.js';
import { platformToken, tenantToken } from '../support/tokens.js';
import { countIdempotencyRecords } from '../support/idempotency.js';
import { tokenData } from '../support/direct-wallet.js';

let token: string;
let seeded: SeededMerchant;
const order = { action: 'AUTH', amount: { currencyCode: 'AED', value: 1000 } };

const postOrder = (outletId: string, key: string | undefined, body: unknown = order, bearer = token) =>
  invoke(createOrder, {
    method: 'POST',
    path: `/transactions/outlets/${outletId}/orders`,
    pathParameters: { outletId },
    token: bearer,
    body,
    ...(key === undefined ? {} : { headers: { 'Idempotency-Key': key } }),
  });

beforeAll(async () => {
  token = await platformToken();
  seeded = await seedMerchant();
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('replay', () => {
  it('answers the stored status and body again with Idempotent-Replayed, and runs the use case once', async () => {
    const create = vi.spyOn(orderRepository, 'create');
    const key = randomUUID();
    const first = await postOrder(seeded.outletId, key);
    expect(first.status, first.raw).toBe(201);
    expect(first.headers['Idempotent-Replayed']).toBeUndefined();
    const again = await postOrder(seeded.outletId, key, { amount: order.amount, action: order.action }); // same JSON, other key order
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers['Idempotent-Replayed']).toBe('true');
    expect(again.headers['Content-Type']).toBe('application/json');
    expect(create).toHaveBeenCalledTimes(1);
    const read = await invoke(getOrder, {
      path: `/transactions/outlets/${seeded.outletId}/orders/${first.body.orderRef}`,
      pathParameters: { outletId: seeded.outletId, orderRef: first.body.orderRef },
      token,
    });
    expect(read.status).toBe(200);
  });

  it('without the header: every request runs, nothing is stored', async () => {
    const before = await countIdempotencyRecords();
    const a = await postOrder(seeded.outletId, undefined);
    const b = await postOrder(seeded.outletId, undefined);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.orderRef).not.toBe(b.body.orderRef);
    expect(b.headers['Idempotent-Replayed']).toBeUndefined();
    expect(await countIdempotencyRecords()).toBe(before);
  });

  it('honours the key on 4.9, 4.5 and 4.6 too', async () => {
    const world = await seedWorld();
    const session = (key: string) =>
      invoke(createSession, {
        method: 'POST',
        path: `/transactions/outlets/${world.outletId}/orders/${world.orderRef}/hosted-sessions`,
        pathParameters: { outletId: world.outletId, orderRef: world.orderRef },
        token,
        headers: { 'Idempotency-Key': key },
      });
    const key = randomUUID();
    const first = await session(key);
    const again = await session(key);
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body.sessionToken).toBe(first.body.sessionToken);
    expect(again.headers['Idempotent-Replayed']).toBe('true');

    const upsert = vi.spyOn(configRepository, 'putTenantMethods');
    const tenant = (key: string) =>
      invoke(putTenantMethods, {
        method: 'POST',
        path: `/config/tenants/${world.tenantRef}/configs/payment-methods`,
        pathParameters: { tenantRef: world.tenantRef },
        token,
        body: { paymentMethods: { CLICK_TO_PAY: { enabled: true } } },
        headers: { 'Idempotency-Key': key },
      });
    const tenantKey = randomUUID();
    expect((await tenant(tenantKey)).status).toBe(200);
    const replayed = await tenant(tenantKey);
    expect(replayed.headers['Idempotent-Replayed']).toBe('true');
    expect(upsert).toHaveBeenCalledTimes(1);
  });
});

describe('the same key with another request → 422 IDEMPOTENCY_KEY_REUSED', () => {
  const expectReused = (response: { status: number; body: any; headers: Record<string, string> }) => {
    expect(response.status, JSON.stringify(response.body)).toBe(422);
    expect(response.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(response.headers['Content-Type']).toBe('application/problem+json');
  };

  it('another body', async () => {
    const key = randomUUID();
    expect((await postOrder(seeded.outletId, key)).status).toBe(201);
    expectReused(await postOrder(seeded.outletId, key, { ...order, amount: { currencyCode: 'AED', value: 1001 } }));
  });

  it('another path (another outlet), and another route', async () => {
    const key = randomUUID();
    expect((await postOrder(seeded.outletId, key)).status).toBe(201);
    expectReused(await postOrder(seeded.otherOutletId, key));
    const world = await seedWorld();
    const session = await invoke(createSession, {
      method: 'POST',
      path: `/transactions/outlets/${world.outletId}/orders/${world.orderRef}/hosted-sessions`,
      pathParameters: { outletId: world.outletId, orderRef: world.orderRef },
      token,
      headers: { 'Idempotency-Key': key },
    });
    expectReused(session);
  });

  it('another method (4.5 PUT after POST, same path and body)', async () => {
    const key = randomUUID();
    const call = (method: string) =>
      invoke(putPlatformMethods, {
        method,
        path: '/config/platform/configs/payment-methods',
        token,
        body: { paymentMethods: { CLICK_TO_PAY: { enabled: true }, DIRECT_WALLET: { enabled: true } } },
        headers: { 'Idempotency-Key': key },
      });
    expect((await call('POST')).status).toBe(200);
    expectReused(await call('PUT'));
  });

  it('another query (4.4 payer_ip)', async () => {
    const world = await seedWorld({}, { directWallet: true });
    const key = randomUUID();
    const pay = (payerIp: string) =>
      invoke(payDirect, {
        method: 'POST',
        path: `/transactions/outlets/${world.outletId}/orders/${world.orderRef}/payments/${world.paymentRef}/click-to-pay/direct`,
        pathParameters: { outletId: world.outletId, orderRef: world.orderRef, paymentRef: world.paymentRef },
        query: { payer_ip: payerIp },
        token,
        body: tokenData(),
        headers: { 'Idempotency-Key': key },
      });
    expect((await pay('198.51.100.7')).status).toBe(200);
    expect((await pay('198.51.100.7')).headers['Idempotent-Replayed']).toBe('true');
    expectReused(await pay('198.51.100.8'));
  });

  it('a token narrowed to another merchant of the same tenant is not handed the stored response', async () => {
    const other = await seedMerchant({ tenantRef: seeded.tenantRef });
    const key = randomUUID();
    const narrowed = await tenantToken({ tenantRef: seeded.tenantRef, merchantRef: seeded.merchantRef });
    expect((await postOrder(seeded.outletId, key, order, narrowed)).status).toBe(201);
    const stranger = await tenantToken({ tenantRef: seeded.tenantRef, merchantRef: other.merchantRef });
    expectReused(await postOrder(seeded.outletId, key, order, stranger));
    // Without the key the stranger gets what scope says: the outlet does not exist for it.
    expect((await postOrder(seeded.outletId, undefined, order, stranger)).status).toBe(404);
  });
});

describe('the header', () => {
  it.each([
    ['empty', ''],
    ['256 characters', 'k'.repeat(256)],
    ['a control character', 'abc\u0001'],
    ['a tab', 'abc\tdef'],
    ['non-ASCII', 'clé-1'],
    ['DEL', 'abc\u007f'],
  ])('%s → 400 INVALID_REQUEST naming headers.Idempotency-Key, and nothing runs', async (_name, value) => {
    const create = vi.spyOn(orderRepository, 'create');
    const response = await postOrder(seeded.outletId, value);
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('INVALID_REQUEST');
    expect(response.body.errors).toEqual([expect.objectContaining({ path: 'headers.Idempotency-Key' })]);
    expect(create).not.toHaveBeenCalled();
  });

  it('accepts 1 and 255 printable characters, spaces and symbols included', async () => {
    for (const key of ['x', `${'~'.repeat(254)}!`, ` a b {"}"} ${randomUUID()}`]) {
      expect((await postOrder(seeded.outletId, key)).status, key).toBe(201);
    }
  });

  it('is looked at only after authentication: a bad token is a 401 and stores nothing', async () => {
    const before = await countIdempotencyRecords();
    const response = await postOrder(seeded.outletId, randomUUID(), order, 'not-a-token');
    expect(response.status).toBe(401);
    expect(await countIdempotencyRecords()).toBe(before);
  });
});

describe('scope', () => {
  it('two tenants and the platform using one key get independent results', async () => {
    const other = await seedMerchant();
    const key = `shared-${randomUUID()}`;
    const first = await postOrder(seeded.outletId, key, order, await tenantToken({ tenantRef: seeded.tenantRef }));
    const second = await postOrder(other.outletId, key, order, await tenantToken({ tenantRef: other.tenantRef }));
    const platform = await postOrder(other.outletId, key, order, token);
    for (const response of [first, second, platform]) {
      expect(response.status, response.raw).toBe(201);
      expect(response.headers['Idempotent-Replayed']).toBeUndefined();
    }
    expect(new Set([first.body.orderRef, second.body.orderRef, platform.body.orderRef]).size).toBe(3);
  });

  it("a hosted-session token's key never meets the merchant's", async () => {
    const world = await seedWorld();
    const merchant = await tenantToken({ tenantRef: world.tenantRef });
    const key = randomUUID();
    const created = await postOrder(world.outletId, key, order, merchant);
    expect(created.status).toBe(201);
    const shopper = await sessionTokenFor(world);
    const paid = await invoke(payClickToPay, {
      method: 'POST',
      path: `/transactions/outlets/${world.outletId}/orders/${world.orderRef}/payments/${world.paymentRef}/click-to-pay`,
      pathParameters: { outletId: world.outletId, orderRef: world.orderRef, paymentRef: world.paymentRef },
      token: shopper,
      body: { checkoutResponse: await checkoutResponse() },
      headers: { 'Idempotency-Key': key },
    });
    expect(paid.status, paid.raw).toBe(200);
    expect(paid.headers['Idempotent-Replayed']).toBeUndefined();
    const replayed = await postOrder(world.outletId, key, order, merchant);
    expect(replayed.body).toEqual(created.body);
    expect(replayed.headers['Idempotent-Replayed']).toBe('true');
  });
});

describe('errors are not stored', () => {
  it('a 404 (unknown outlet) then, with the outlet onboarded, the same key succeeds', async () => {
    const key = randomUUID();
    const outletId = uniqueRef('o');
    const missing = await postOrder(outletId, key);
    expect(missing.status).toBe(404);
    expect((await postOrder(outletId, key)).status).toBe(404); // not a replay: the use case ran again
    await seedMerchant({ outlets: [outletId] });
    const created = await postOrder(outletId, key);
    expect(created.status, created.raw).toBe(201);
    expect(created.headers['Idempotent-Replayed']).toBeUndefined();
    expect((await postOrder(outletId, key)).headers['Idempotent-Replayed']).toBe('true');
  });

  it('a 409 (platform off for a tenant enablement) then, with the platform on, the same key succeeds', async () => {
    const tenantRef = uniqueRef('t');
    const key = randomUUID();
    const enable = () =>
      invoke(putTenantMethods, {
        method: 'POST',
        path: `/config/tenants/${tenantRef}/configs/payment-methods`,
        pathParameters: { tenantRef },
        token,
        body: { paymentMethods: { CLICK_TO_PAY: { enabled: true } } },
        headers: { 'Idempotency-Key': key },
      });
    await setPlatform({ CLICK_TO_PAY: { enabled: false }, DIRECT_WALLET: { enabled: false } });
    try {
      const refused = await enable();
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe('PLATFORM_NOT_ENABLED');
    } finally {
      await setPlatform({ CLICK_TO_PAY: { enabled: true }, DIRECT_WALLET: { enabled: true } });
    }
    const enabled = await enable();
    expect(enabled.status, enabled.raw).toBe(200);
    expect(enabled.headers['Idempotent-Replayed']).toBeUndefined();
  });
});
