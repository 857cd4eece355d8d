import { describe, expect, it } from 'vitest';
import { NotFoundError } from '../../../lib/core/errors.js';
import { listMerchantEvents, redeliverMerchantEvent } from '../../../lib/core/webhooks/merchant-events.js';
import { deliveryOf } from '../support/delivery.js';
import { authorisedPayment, coreWorld, MERCHANT, platform, tenantPrincipal, type CoreWorld } from '../support/world.js';

/** SPEC 4.15 GET …/events and POST …/redeliver (lib/core/webhooks/merchant-events.ts). */
const deps = (world: CoreWorld) => ({ config: world.stores.config, events: world.stores.outbox, now: world.clock.now });

describe('a merchant’s events', () => {
  it('are listed oldest first, a page at a time, with the payment and their delivery attempts', async () => {
    const world = await coreWorld();
    const delivery = deliveryOf(world);
    await delivery.configure();
    const first = await authorisedPayment(world);
    world.clock.advance(1_000);
    await authorisedPayment(world);
    world.clock.advance(1_000);
    await authorisedPayment(world);
    await delivery.sweep();
    const page = await listMerchantEvents(deps(world), platform, MERCHANT, { limit: 2 });
    expect(page.events).toHaveLength(2);
    expect(page.events[0]).toMatchObject({
      type: 'payment.authorised',
      data: { paymentRef: first.ids.paymentRef, orderRef: first.ids.orderRef },
      delivery: { status: 'DELIVERED', attempts: [{ status: 204 }] },
    });
    const rest = await listMerchantEvents(deps(world), platform, MERCHANT, { after: page.next, limit: 2 });
    expect(rest.events).toHaveLength(1);
    expect(rest).not.toHaveProperty('next');
  });

  it('a pending event shows when its next attempt is due', async () => {
    const world = await coreWorld();
    const delivery = deliveryOf(world);
    await delivery.configure();
    delivery.receiver.otherwise = { ok: false, status: 500, durationMs: 1 };
    await authorisedPayment(world);
    await delivery.sweep();
    const [event] = (await listMerchantEvents(deps(world), platform, MERCHANT, { limit: 10 })).events;
    expect(event!.delivery).toMatchObject({ status: 'PENDING', nextAttemptAt: new Date(world.clock.now() + 5_000).toISOString() });
  });

  it('a redelivery sends a delivered event again, from the start of the schedule', async () => {
    const world = await coreWorld();
    const delivery = deliveryOf(world);
    await delivery.configure();
    await authorisedPayment(world);
    await delivery.sweep();
    const [event] = (await listMerchantEvents(deps(world), platform, MERCHANT, { limit: 10 })).events;
    expect(await redeliverMerchantEvent(deps(world), platform, MERCHANT, event!.id)).toEqual({ id: event!.id, status: 'PENDING' });
    expect(await delivery.sweep()).toEqual(['delivered']);
    expect(delivery.receiver.received.map((r) => r.headers['webhook-id'])).toEqual([event!.id, event!.id]);
  });

  it('an unknown event, another merchant’s scope, or an outlet-narrowed token: 404', async () => {
    const world = await coreWorld();
    await expect(redeliverMerchantEvent(deps(world), platform, MERCHANT, 'evt_000000000000000000000000000')).rejects.toBeInstanceOf(NotFoundError);
    await expect(listMerchantEvents(deps(world), tenantPrincipal({ tenantRef: 'another' }), MERCHANT, { limit: 1 })).rejects.toBeInstanceOf(NotFoundError);
    await expect(listMerchantEvents(deps(world), tenantPrincipal({ outletIds: ['x'] }), MERCHANT, { limit: 1 })).rejects.toBeInstanceOf(NotFoundError);
  });
});
