import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as createPayment } from '../../functions/create-payment/handler.js';
import { handler as createSession } from '../../functions/create-hosted-session/handler.js';
import { handler as getOrder } from '../../functions/get-order/handler.js';
import { documentClient } from '../../lib/composition/aws.js';
import { MAX_PAYMENTS_PER_ORDER } from '../../lib/core/domain/payment-retry.js';
import * as resources from '../../lib/http/resource-schemas.js';
import { checkoutResponse } from '../support/checkout.js';
import { tokenData } from '../support/direct-wallet.js';
import type { World } from '../support/endpoints.js';
import { invoke } from '../support/invoke.js';
import { answerChallenge, completeThreeDs, pay, payDirectly } from '../support/payments.js';
import { seedWorld, uniqueRef } from '../support/seed.js';
import { sessionTokenFor } from '../support/sessions.js';
import { platformToken, tenantToken } from '../support/tokens.js';

/**
 * POST /transactions/outlets/{outletId}/orders/{orderRef}/payments: a new payment on the same
 * order after a retryable decline (docs/integrating/hosted-page.md), as the hosted page or the
 * merchant asks for it; exactly one per failed payment, however many ask at once.
 */
let token: string;

beforeAll(async () => {
  token = await platformToken();
});

type OrderIds = Pick<World, 'outletId' | 'orderRef'>;
const retry = (w: OrderIds, bearer: string | null = token, headers: Record<string, string> = {}, body?: unknown) =>
  invoke(createPayment, {
    method: 'POST',
    path: `/transactions/outlets/${w.outletId}/orders/${w.orderRef}/payments`,
    pathParameters: { outletId: w.outletId, orderRef: w.orderRef },
    headers,
    ...(bearer === null ? {} : { token: bearer }),
    ...(body === undefined ? {} : { body }),
  });
const readOrder = (w: OrderIds, bearer = token) =>
  invoke(getOrder, {
    path: `/transactions/outlets/${w.outletId}/orders/${w.orderRef}`,
    pathParameters: { outletId: w.outletId, orderRef: w.orderRef },
    token: bearer,
  });
const latestRef = (order: { payments: { paymentRef: string }[] }) => order.payments.at(-1)!.paymentRef;

/** An order whose only payment was declined CARD_EXPIRED (the sandbox card whose token ends 0002). */
async function declinedWorld(options: Parameters<typeof seedWorld>[1] = {}) {
  const world = await seedWorld({}, options);
  const declined = await pay(world, token, await checkoutResponse({ card: 'visa-expired' }));
  expect(declined.body).toMatchObject({ state: 'FAILED', failure: { code: 'CARD_EXPIRED' }, retryable: true });
  return world;
}

/** Writes a failure an acquirer could answer but the sandbox never does. */
async function failDirectly(w: Pick<World, 'orderRef' | 'paymentRef'>, code: string) {
  await documentClient.send(
    new UpdateCommand({
      TableName: process.env.ORDERS_TABLE,
      Key: { pk: `ORDER#${w.orderRef}`, sk: `PAYMENT#${w.paymentRef}` },
      UpdateExpression: 'SET #state = :failed, failure = :failure',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: { ':failed': 'FAILED', ':failure': { code, reason: code } },
    }),
  );
}

describe('a retry after a decline', () => {
  it('adds a STARTED payment last, the order is STARTED again, and the new payment pays through 4.3', async () => {
    const world = await declinedWorld();
    const session = await sessionTokenFor(world);
    expect((await readOrder(world, session)).body.state).toBe('FAILED');

    const retried = await retry(world, session);
    expect(retried.status, JSON.stringify(retried.body)).toBe(201);
    resources.orderResource.parse(retried.body);
    expect(retried.body.state).toBe('STARTED');
    expect(retried.body.payments).toHaveLength(2);
    expect(retried.body.payments[0]).toMatchObject({ paymentRef: world.paymentRef, state: 'FAILED', retryable: true });
    const fresh = retried.body.payments[1];
    expect(fresh).toMatchObject({ state: 'STARTED', orderRef: world.orderRef, outletId: world.outletId, amount: { currencyCode: 'AED', value: 1000 } });
    expect(fresh.paymentRef).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(fresh.paymentRef).not.toBe(world.paymentRef);
    expect(fresh).not.toHaveProperty('retryable');
    expect((await readOrder(world)).body).toEqual(retried.body);

    const paid = await pay({ ...world, paymentRef: fresh.paymentRef }, session, await checkoutResponse());
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body.state).toBe('AUTHORISED');
    const after = await readOrder(world);
    expect(after.body.state).toBe('AUTHORISED');
    expect(after.body.payments.map((p: { state: string }) => p.state)).toEqual(['FAILED', 'AUTHORISED']);

    const again = await retry(world, session);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('PAYMENT_STATE_CONFLICT');
  });

  it('after THREE_DS_FAILED: the new payment can step up and complete 3DS (4.10)', async () => {
    const world = await seedWorld();
    const awaiting = await pay(world, token, await checkoutResponse({ card: 'visa-3ds' }));
    const { cres: wrong } = await answerChallenge(awaiting.body.threeDs, '0000');
    const failed = await completeThreeDs(world, token, wrong!);
    expect(failed.body).toMatchObject({ state: 'FAILED', failure: { code: 'THREE_DS_FAILED' }, retryable: true });

    const retried = await retry(world);
    expect(retried.status).toBe(201);
    const next = { ...world, paymentRef: latestRef(retried.body) };
    const stepUp = await pay(next, token, await checkoutResponse({ card: 'visa-3ds' }));
    expect(stepUp.body.state).toBe('AWAIT_3DS');
    const { cres } = await answerChallenge(stepUp.body.threeDs, '1234');
    const done = await completeThreeDs(next, token, cres!);
    expect(done.status).toBe(200);
    expect(done.body.state).toBe('AUTHORISED');
  });

  it('the new payment pays through 4.4 Direct Wallet as well', async () => {
    const world = await seedWorld({}, { directWallet: true });
    const declined = await payDirectly(
      world,
      token,
      tokenData({ token: { paymentToken: '4895370012000002', tokenExpirationMonth: '12', tokenExpirationYear: '2029' } }),
    );
    expect(declined.body).toMatchObject({ state: 'FAILED', failure: { code: 'CARD_EXPIRED' }, retryable: true });
    const retried = await retry(world);
    const paid = await payDirectly({ ...world, paymentRef: latestRef(retried.body) }, token, tokenData());
    expect(paid.body.state).toBe('AUTHORISED');
  });

  it('allows at most 5 payments: the fifth decline is not retryable and a sixth payment is refused', async () => {
    const world = await seedWorld({}, { amount: 1051 }); // the sandbox declines every attempt INSUFFICIENT_FUNDS
    let paymentRef = world.paymentRef;
    for (let attempt = 1; attempt <= MAX_PAYMENTS_PER_ORDER; attempt++) {
      const declined = await pay({ ...world, paymentRef }, token, await checkoutResponse());
      expect(declined.body).toMatchObject({ state: 'FAILED', failure: { code: 'INSUFFICIENT_FUNDS' }, retryable: attempt < MAX_PAYMENTS_PER_ORDER });
      const retried = await retry(world);
      if (attempt === MAX_PAYMENTS_PER_ORDER) {
        expect(retried.status).toBe(409);
        expect(retried.body.code).toBe('PAYMENT_STATE_CONFLICT');
        expect(retried.body.detail).toMatch(/at most 5 payments/);
      } else {
        expect(retried.status).toBe(201);
        expect(retried.body.payments).toHaveLength(attempt + 1);
        paymentRef = latestRef(retried.body);
      }
    }
    const order = (await readOrder(world)).body;
    expect(order.payments).toHaveLength(MAX_PAYMENTS_PER_ORDER);
    expect(order.state).toBe('FAILED');
  });
});

describe('when a retry is refused (409 PAYMENT_STATE_CONFLICT)', () => {
  it('while the only payment is still STARTED', async () => {
    const world = await seedWorld();
    const response = await retry(world);
    expect(response.status).toBe(409);
    expect(response.body.code).toBe('PAYMENT_STATE_CONFLICT');
    expect((await readOrder(world)).body.payments).toHaveLength(1);
  });

  it('once the order is authorised', async () => {
    const world = await seedWorld();
    await pay(world, token, await checkoutResponse());
    expect((await retry(world)).status).toBe(409);
  });

  it('while the order waits for 3DS', async () => {
    const world = await seedWorld();
    await pay(world, token, await checkoutResponse({ card: 'visa-3ds' }));
    expect((await retry(world)).status).toBe(409);
  });

  it.each(['STOLEN_CARD', 'SUSPECTED_FRAUD', 'TRANSACTION_NOT_PERMITTED', 'SOMETHING_NEW'])('after a %s decline, which says retryable: false', async (code) => {
    const world = await seedWorld();
    await failDirectly(world, code);
    const order = (await readOrder(world)).body;
    expect(order.payments[0]).toMatchObject({ state: 'FAILED', failure: { code }, retryable: false });
    resources.orderResource.parse(order);
    const response = await retry(world);
    expect(response.status).toBe(409);
    expect(response.body.detail).toMatch(/cannot fix/);
  });
});

describe('concurrency and idempotency', () => {
  it('five simultaneous retries create exactly one new payment', async () => {
    const world = await declinedWorld();
    const session = await sessionTokenFor(world);
    const answers = await Promise.all(Array.from({ length: 5 }, (_, i) => retry(world, i % 2 ? session : token)));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409]);
    for (const refused of answers.filter((a) => a.status === 409)) expect(refused.body.code).toBe('PAYMENT_STATE_CONFLICT');
    const order = (await readOrder(world)).body;
    expect(order.payments).toHaveLength(2);
    expect(latestRef(order)).toBe(latestRef(answers.find((a) => a.status === 201)!.body));
  });

  it('the same Idempotency-Key answers the same 201 again; another key then gets 409', async () => {
    const world = await declinedWorld();
    const key = crypto.randomUUID();
    const first = await retry(world, token, { 'Idempotency-Key': key });
    const again = await retry(world, token, { 'Idempotency-Key': key });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers['Idempotent-Replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await retry(world, token, { 'Idempotency-Key': crypto.randomUUID() })).status).toBe(409);
    expect((await readOrder(world)).body.payments).toHaveLength(2);
  });
});

describe('who may retry', () => {
  it('the merchant with CREATE_ORDER, in scope', async () => {
    const world = await declinedWorld();
    const merchant = await tenantToken({ tenantRef: world.tenantRef, outletIds: [world.outletId], permissions: ['CREATE_ORDER'] });
    expect((await retry(world, merchant)).status).toBe(201);
  });

  it('not an access token without CREATE_ORDER (403), even one that may authorize payments', async () => {
    const world = await declinedWorld();
    const payer = await tenantToken({ tenantRef: world.tenantRef, permissions: ['CREATE_AUTHORIZATION', 'VIEW_ORDER'] });
    const response = await retry(world, payer);
    expect(response.status).toBe(403);
    expect(response.body.code).toBe('PERMISSION_DENIED');
  });

  it('not another tenant, another outlet, or the session of another order (404, as if absent)', async () => {
    const world = await declinedWorld();
    const other = await declinedWorld();
    expect((await retry(world, await tenantToken({ tenantRef: uniqueRef('t'), permissions: ['CREATE_ORDER'] }))).status).toBe(404);
    expect(
      (await retry(world, await tenantToken({ tenantRef: world.tenantRef, outletIds: [world.otherOutletId], permissions: ['CREATE_ORDER'] }))).status,
    ).toBe(404);
    expect((await retry(world, await sessionTokenFor(other))).status).toBe(404);
    expect((await retry({ outletId: world.otherOutletId, orderRef: world.orderRef })).status).toBe(404);
    expect((await readOrder(world)).body.payments).toHaveLength(1);
  });

  it('nobody without a token (401), and no body is accepted (400)', async () => {
    const world = await declinedWorld();
    const anonymous = await retry(world, null);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers['WWW-Authenticate']).toBe('Bearer');
    expect((await retry(world, token, {}, { paymentRef: 'mine' })).status).toBe(400);
    expect((await readOrder(world)).body.payments).toHaveLength(1);
  });
});

describe('4.9 after a decline', () => {
  const newSession = (w: OrderIds) =>
    invoke(createSession, {
      method: 'POST',
      path: `/transactions/outlets/${w.outletId}/orders/${w.orderRef}/hosted-sessions`,
      pathParameters: { outletId: w.outletId, orderRef: w.orderRef },
      token,
    });

  it('mints a session while the order can still be retried, and refuses one once it cannot', async () => {
    const retryable = await declinedWorld();
    expect((await newSession(retryable)).status).toBe(201);
    const final = await seedWorld();
    await failDirectly(final, 'STOLEN_CARD');
    expect((await newSession(final)).status).toBe(409);
  });
});
