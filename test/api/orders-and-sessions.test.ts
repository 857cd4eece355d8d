import { createHash } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as createOrder } from '../../functions/create-order/handler.js';
import { handler as getOrder } from '../../functions/get-order/handler.js';
import { handler as createSession } from '../../functions/create-hosted-session/handler.js';
import { handler as getMerchantConfig } from '../../functions/get-merchant-config/handler.js';
import { handler as getKeys } from '../../functions/get-encryption-keys/handler.js';
import { documentClient } from '../../lib/composition/aws.js';
import { invoke } from '../support/invoke.js';
import { seedMerchant, seedWorld, uniqueRef, type SeededMerchant } from '../support/seed.js';
import { platformToken, tenantToken } from '../support/tokens.js';

let token: string;
let seeded: SeededMerchant;

const newOrder = (outletId: string, body: unknown, bearer = token) =>
  invoke(createOrder, { method: 'POST', path: `/transactions/outlets/${outletId}/orders`, pathParameters: { outletId }, token: bearer, body });
const readOrder = (outletId: string, orderRef: string, bearer = token) =>
  invoke(getOrder, { path: `/transactions/outlets/${outletId}/orders/${orderRef}`, pathParameters: { outletId, orderRef }, token: bearer });
const newSession = (outletId: string, orderRef: string, bearer = token) =>
  invoke(createSession, {
    method: 'POST',
    path: `/transactions/outlets/${outletId}/orders/${orderRef}/hosted-sessions`,
    pathParameters: { outletId, orderRef },
    token: bearer,
  });

beforeAll(async () => {
  token = await platformToken();
  seeded = await seedMerchant();
});

describe('4.8 orders', () => {
  it('creates an order with one STARTED payment and reads it back', async () => {
    const created = await newOrder(seeded.outletId, {
      action: 'PURCHASE',
      amount: { currencyCode: 'AED', value: 1000 },
      merchantOrderReference: 'INV-1001',
      emailAddress: 'buyer@example.com',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      outletId: seeded.outletId,
      action: 'PURCHASE',
      amount: { currencyCode: 'AED', value: 1000 },
      state: 'STARTED',
      paymentMethods: ['CLICK_TO_PAY'],
      merchantOrderReference: 'INV-1001',
    });
    expect(created.body.payments).toHaveLength(1);
    expect(created.body.payments[0]).toMatchObject({ state: 'STARTED', orderRef: created.body.orderRef });
    const read = await readOrder(seeded.outletId, created.body.orderRef);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
  });

  it('answers 404 for an unknown outlet and for an order read through the wrong outlet', async () => {
    expect((await newOrder(uniqueRef('o'), { action: 'AUTH', amount: { currencyCode: 'AED', value: 1 } })).status).toBe(404);
    const created = await newOrder(seeded.outletId, { action: 'AUTH', amount: { currencyCode: 'AED', value: 1 } });
    expect((await readOrder(seeded.otherOutletId, created.body.orderRef)).status).toBe(404);
    expect((await readOrder(seeded.outletId, uniqueRef('r'))).status).toBe(404);
  });

  it.each([
    ['zero amount', { action: 'AUTH', amount: { currencyCode: 'AED', value: 0 } }, 'amount.value'],
    ['fractional amount', { action: 'AUTH', amount: { currencyCode: 'AED', value: 10.5 } }, 'amount.value'],
    ['string amount', { action: 'AUTH', amount: { currencyCode: 'AED', value: '1000' } }, 'amount.value'],
    ['unknown currency', { action: 'AUTH', amount: { currencyCode: 'XYZ', value: 100 } }, 'amount.currencyCode'],
    ['lowercase currency', { action: 'AUTH', amount: { currencyCode: 'aed', value: 100 } }, 'amount.currencyCode'],
    ['unknown action', { action: 'REFUND', amount: { currencyCode: 'AED', value: 100 } }, 'action'],
    ['bad email', { action: 'AUTH', amount: { currencyCode: 'AED', value: 100 }, emailAddress: 'nope' }, 'emailAddress'],
    ['unknown field', { action: 'AUTH', amount: { currencyCode: 'AED', value: 100 }, pan: '4111111111111111' }, ''],
  ])('rejects %s with 400 naming %s', async (_name, body, path) => {
    const response = await newOrder(seeded.outletId, body);
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('INVALID_REQUEST');
    expect(response.body.errors.map((e: { path: string }) => e.path)).toContain(path);
    expect(response.raw).not.toContain('4111111111111111');
  });
});

describe('4.9 hosted sessions', () => {
  it('issues an opaque ≥256-bit token, stores only its SHA-256, and returns the checkout URL', async () => {
    const world = await seedWorld();
    const response = await newSession(world.outletId, world.orderRef);
    expect(response.status).toBe(201);
    const { sessionToken, expiresAt, checkoutUrl } = response.body;
    expect(sessionToken).toMatch(/^hs_[A-Za-z0-9_-]{43}$/);
    expect(checkoutUrl).toBe(`https://pay.test.example/checkout?session=${sessionToken}`);
    const ttl = Date.parse(expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(29 * 60_000);
    expect(ttl).toBeLessThanOrEqual(30 * 60_000);
    const hash = createHash('sha256').update(sessionToken).digest('hex');
    const { Item } = await documentClient.send(new GetCommand({ TableName: process.env.SESSIONS_TABLE, Key: { pk: hash } }));
    expect(Item).toMatchObject({ orderRef: world.orderRef, outletId: world.outletId });
    expect(JSON.stringify(Item)).not.toContain(sessionToken);
  });

  it('grants the session token exactly its order: view order, keys, merchant config; nothing else', async () => {
    const world = await seedWorld();
    const other = await seedWorld({ tenantRef: world.tenantRef });
    const { body } = await newSession(world.outletId, world.orderRef);
    const session = body.sessionToken as string;

    expect((await readOrder(world.outletId, world.orderRef, session)).status).toBe(200);
    expect((await invoke(getKeys, { path: '/config/configs/vctp/encryption-keys', token: session })).status).toBe(200);
    const config = await invoke(getMerchantConfig, {
      path: `/config/merchants/${world.merchantRef}/configs/vctp`,
      pathParameters: { merchantRef: world.merchantRef },
      token: session,
    });
    expect(config.status).toBe(200);

    // Another order, even of the same tenant, does not exist for this session.
    expect((await readOrder(other.outletId, other.orderRef, session)).status).toBe(404);
    const otherConfig = await invoke(getMerchantConfig, {
      path: `/config/merchants/${other.merchantRef}/configs/vctp`,
      pathParameters: { merchantRef: other.merchantRef },
      token: session,
    });
    expect(otherConfig.status).toBe(404);
    // A session cannot create orders or more sessions.
    const order = await newOrder(world.outletId, { action: 'AUTH', amount: { currencyCode: 'AED', value: 1 } }, session);
    expect(order.status).toBe(403);
    expect(order.body.code).toBe('PERMISSION_DENIED');
    expect((await newSession(world.outletId, world.orderRef, session)).status).toBe(403);
  });

  it('answers 404 for an order of another outlet and rejects a body', async () => {
    const world = await seedWorld();
    expect((await newSession(world.otherOutletId, world.orderRef)).status).toBe(404);
    const withBody = await invoke(createSession, {
      method: 'POST',
      path: `/transactions/outlets/${world.outletId}/orders/${world.orderRef}/hosted-sessions`,
      pathParameters: { outletId: world.outletId, orderRef: world.orderRef },
      token,
      body: { ttl: 999999 },
    });
    expect(withBody.status).toBe(400);
  });

  it('lets a tenant token with CREATE_ORDER create a session', async () => {
    const world = await seedWorld();
    const tenant = await tenantToken({ tenantRef: world.tenantRef, permissions: ['CREATE_ORDER'] });
    expect((await newSession(world.outletId, world.orderRef, tenant)).status).toBe(201);
  });
});
