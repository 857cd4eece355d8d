import type { DeclineReason } from '../../../lib/core/domain/decline.js';
import { describe, expect, it } from 'vitest';
import { PaymentStateConflictError } from '../../../lib/core/errors.js';
import { retryPayment } from '../../../lib/core/orders/payment-retry.js';
import { nextPaymentRef } from '../../../lib/core/domain/payment-retry.js';
import { cancelLink, newLink, openLink } from '../support/links.js';
import { coreWorld, newOrder, OUTLET, payDirect, platform, represent, type CoreWorld } from '../support/world.js';

/** POST …/orders/{orderRef}/payments (lib/core/orders/payment-retry.ts): another card after a retryable decline. */
const retry = (world: CoreWorld, orderRef: string) =>
  retryPayment(
    { config: world.stores.config, orders: world.stores.orders, links: world.stores.links, now: world.clock.now, represent },
    platform,
    OUTLET,
    orderRef,
  );

async function declined(world: CoreWorld, code: DeclineReason = 'INSUFFICIENT_FUNDS') {
  const created = await newOrder(world);
  world.acquirer.declineCode = code;
  world.acquirer.next('decline');
  await payDirect(world, created.ids);
  return created;
}

describe('a new payment after a decline', () => {
  it('a retryable decline lets the order take a new STARTED payment (attempt 2, derived from the failed one): the order is STARTED again', async () => {
    const world = await coreWorld();
    const { ids } = await declined(world);
    const view = await retry(world, ids.orderRef);
    expect(view.state).toBe('STARTED');
    expect(view.payments).toEqual([
      expect.objectContaining({ state: 'FAILED' }),
      expect.objectContaining({ state: 'STARTED', paymentRef: nextPaymentRef(ids) }),
    ]);
    const second = (await world.stores.orders.get(ids.orderRef))!.payments.find((p) => p.paymentRef === nextPaymentRef(ids))!;
    expect(second.attempt).toBe(2);
    expect((await payDirect(world, { ...ids, paymentRef: second.paymentRef })).state).toBe('AUTHORISED');
  });

  it('two retries of the same failed payment at once: one new payment, the other request 409', async () => {
    const world = await coreWorld();
    const { ids } = await declined(world);
    const results = await Promise.allSettled([retry(world, ids.orderRef), retry(world, ids.orderRef)]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    // Both read the order before either wrote: the conditional put on the derived paymentRef decided.
    expect((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason).toMatchObject({
      code: 'PAYMENT_STATE_CONFLICT',
      message: 'Another request already started a new payment for this order.',
    });
    expect((await world.stores.orders.get(ids.orderRef))!.payments).toHaveLength(2);
  });

  it('no new payment while one is not failed, after a decline no other card can fix, or after five attempts', async () => {
    const world = await coreWorld();
    const fresh = await newOrder(world);
    await expect(retry(world, fresh.ids.orderRef)).rejects.toBeInstanceOf(PaymentStateConflictError);
    const stolen = await declined(world, 'LOST_OR_STOLEN');
    await expect(retry(world, stolen.ids.orderRef)).rejects.toMatchObject({
      message: 'The last payment was declined for a reason another attempt cannot fix.',
    });

    const { ids } = await declined(world);
    let paymentRef = ids.paymentRef;
    for (let attempt = 2; attempt <= 5; attempt++) {
      await retry(world, ids.orderRef);
      paymentRef = nextPaymentRef({ paymentRef });
      world.acquirer.next('decline');
      await payDirect(world, { ...ids, paymentRef });
    }
    await expect(retry(world, ids.orderRef)).rejects.toMatchObject({ message: 'An order has at most 5 payments.' });
  });

  it('no new payment for an order whose payment link was cancelled', async () => {
    const world = await coreWorld();
    const link = await newLink(world);
    const { ids } = await openLink(world, link.linkRef);
    world.acquirer.next('decline');
    await payDirect(world, ids);
    await cancelLink(world, link.linkRef);
    await expect(retry(world, ids.orderRef)).rejects.toMatchObject({ message: 'The payment link of this order was cancelled.' });
  });
});
