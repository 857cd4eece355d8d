import { describe, expect, it } from 'vitest';
import { paymentOutboxRef } from '../../../lib/adapters/memory/tables.js';
import { drainOutbox, processDue, RETRY_DELAYS_MS, runDelivery } from '../../../lib/core/outbox/worker.js';
import type { OutboxStore } from '../../../lib/core/ports/outbox-store.js';
import { checkout } from '../support/checkout.js';
import { deliveryOf } from '../support/delivery.js';
import { capture } from '../support/operations.js';
import { authorisedPayment, coreWorld, MERCHANT, newOrder, payDirect, platform, recordedMetrics } from '../support/world.js';
import { payWithClickToPay } from '../../../lib/core/payments/pay-with-click-to-pay.js';

/**
 * The outbox worker (SPEC 4.15, lib/core/outbox/worker.ts): what a payment's write announced is
 * moved into one delivery per entry, stored once, then delivered by the deliverer of its kind —
 * claimed first so two workers never send it at once, retried on the schedule for over 24 h.
 */
const events = async (world: Awaited<ReturnType<typeof coreWorld>>) => world.stores.outbox.list(MERCHANT, undefined, 100);

describe('draining a payment’s outbox', () => {
  it('moves each entry into a delivery of its own, empties the outbox, and delivers each by its kind: the webhook to the merchant, the confirmation to the network', async () => {
    const world = await coreWorld();
    const delivery = deliveryOf(world);
    await delivery.configure();
    const { ids } = await newOrder(world);
    await payWithClickToPay(world.payments, platform, ids, await checkout(world, { network: 'mastercard', card: 'mastercard-world' }), world.facts);
    expect(await delivery.sweep()).toEqual(['drained', 'delivered', 'delivered']);
    expect(await world.stores.outbox.outboxOf(paymentOutboxRef(ids.orderRef, ids.paymentRef))).toEqual([]);
    expect(delivery.receiver.received.map((r) => JSON.parse(r.body).type)).toEqual(['payment.authorised']);
    expect(delivery.networks.mastercard.received).toEqual([
      expect.objectContaining({ outcome: 'AUTHORISED', paymentRef: ids.paymentRef, network: 'mastercard' }),
    ]);
    expect(await delivery.sweep()).toEqual([]);
  });

  it('a drain that stopped before clearing (a crash) is repeated without storing or delivering anything twice', async () => {
    const world = await coreWorld();
    const delivery = deliveryOf(world);
    await delivery.configure();
    const { ids } = await authorisedPayment(world);
    const ref = paymentOutboxRef(ids.orderRef, ids.paymentRef);
    const crashing: OutboxStore = Object.assign(Object.create(world.stores.outbox) as OutboxStore, {
      clearOutbox: () => Promise.reject(new Error('the worker died (fake)')),
    });
    await expect(drainOutbox({ ...delivery.worker, store: crashing }, ref)).rejects.toThrow('the worker died');
    // The outbox is drained again (its delivery already stored, kept once) and delivered; the delivery, due too, is claimed already.
    expect((await delivery.sweep()).sort()).toEqual(['delivered', 'drained', 'skipped']);
    expect(await events(world)).toHaveLength(1);
    expect(delivery.receiver.received).toHaveLength(1);
  });

  it('an entry a later write appended while the worker drained stays for the next round, and is delivered once too', async () => {
    const world = await coreWorld();
    const delivery = deliveryOf(world);
    await delivery.configure();
    const { ids } = await authorisedPayment(world);
    const store = world.stores.outbox;
    let meanwhile = true;
    const busy: OutboxStore = Object.assign(Object.create(store) as OutboxStore, {
      outboxOf: async (...args: Parameters<OutboxStore['outboxOf']>) => {
        const seen = await store.outboxOf(...args);
        if (meanwhile) {
          meanwhile = false;
          world.clock.advance(1_000);
          await capture(world, ids, 'cap-1', 1_000); // its write appends payment.partially_captured
        }
        return seen;
      },
    });
    await processDue({ ...delivery.worker, store: busy }, { ref: paymentOutboxRef(ids.orderRef, ids.paymentRef), kind: 'outbox' }, world.logger);
    expect((await events(world)).map((e) => e.type)).toEqual(['payment.authorised', 'payment.partially_captured']);
    expect(delivery.receiver.received.map((r) => JSON.parse(r.body).type)).toEqual(['payment.authorised', 'payment.partially_captured']);
  });
});

describe('delivering', () => {
  it('every delivery is signed per Standard Webhooks with the merchant’s secret and carries the exact body stored', async () => {
    const world = await coreWorld();
    const delivery = deliveryOf(world);
    await delivery.configure();
    await authorisedPayment(world);
    await delivery.sweep();
    const [received] = delivery.receiver.received;
    expect(received!.verifiedWith).toEqual(delivery.secrets);
    expect(received!.body).toBe((await events(world))[0]!.body);
    expect(received!.headers['webhook-timestamp']).toBe(String(Math.floor(world.clock.now() / 1000)));
  });

  it('during a secret rotation both secrets sign: a receiver that knows either one verifies', async () => {
    const world = await coreWorld();
    const delivery = deliveryOf(world);
    await delivery.configure();
    await delivery.rotate();
    await authorisedPayment(world);
    await delivery.sweep();
    expect(delivery.receiver.received[0]!.verifiedWith).toEqual(delivery.secrets);
    expect(delivery.secrets).toHaveLength(2);
  });

  it('a failing receiver is retried on the schedule — 5 s, 30 s, 2 min … 10 h, over a day — then the event is FAILED', async () => {
    const metrics = recordedMetrics();
    const world = await coreWorld();
    const delivery = deliveryOf(world);
    await delivery.configure();
    delivery.receiver.otherwise = { ok: false, status: 503, durationMs: 7 };
    await authorisedPayment(world);
    expect(await delivery.sweep()).toEqual(['drained', 'retry']);
    for (const delay of RETRY_DELAYS_MS.slice(0, -1)) {
      world.clock.advance(delay - 1);
      expect(await delivery.sweep()).toEqual([]); // not before its time
      world.clock.advance(1);
      expect(await delivery.sweep()).toEqual(['retry']);
    }
    world.clock.advance(RETRY_DELAYS_MS.at(-1)!);
    expect(await delivery.sweep()).toEqual(['failed']);
    const [event] = await events(world);
    expect(event).toMatchObject({ status: 'FAILED', failures: 10 });
    expect(event!.attempts).toHaveLength(11);
    expect(RETRY_DELAYS_MS.reduce((a, b) => a + b, 0)).toBeGreaterThan(24 * 3_600_000);
    expect(metrics.filter((m) => m.name === 'WebhookDeliveries').map((m) => m.dimensions.outcome)).toEqual([...Array(10).fill('retrying'), 'failed']);
  });

  it('two workers never send one delivery at once: the claim lets one through, the other skips it', async () => {
    const world = await coreWorld();
    const delivery = deliveryOf(world);
    await delivery.configure();
    await authorisedPayment(world);
    await delivery.sweep();
    delivery.receiver.received.length = 0;
    const [event] = await events(world);
    await world.stores.outbox.redeliver(MERCHANT, event!.id, world.clock.now());
    const [due] = await world.stores.outbox.due(world.clock.now(), 25);
    const outcomes = await Promise.all([processDue(delivery.worker, due!, world.logger), processDue(delivery.worker, due!, world.logger)]);
    expect(outcomes.flat().sort()).toEqual(['delivered', 'skipped']);
    expect(delivery.receiver.received).toHaveLength(1);
  });

  it('a worker that died mid-attempt leaves the delivery due again when its claim ends', async () => {
    const world = await coreWorld();
    const delivery = deliveryOf(world);
    await delivery.configure();
    const { ids } = await authorisedPayment(world);
    const [kept] = await drainOutbox(delivery.worker, paymentOutboxRef(ids.orderRef, ids.paymentRef));
    await world.stores.outbox.claim(kept!.ref, world.clock.now(), world.clock.now() + 30_000); // …and died
    expect(await delivery.sweep()).toEqual([]);
    world.clock.advance(30_000);
    expect(await delivery.sweep()).toEqual(['delivered']);
  });

  it('an attempt that outlived its claim (a redelivery took over) only joins the history; the redelivery still follows', async () => {
    const world = await coreWorld();
    const delivery = deliveryOf(world);
    await delivery.configure();
    await authorisedPayment(world);
    let release!: () => void;
    delivery.receiver.hold = new Promise((resolve) => {
      release = resolve;
    });
    delivery.receiver.answers.push({ ok: false, status: 500, durationMs: 9 });
    const first = delivery.sweep();
    while (delivery.receiver.received.length === 0) await new Promise((resolve) => setImmediate(resolve));
    const [event] = await events(world);
    await world.stores.outbox.redeliver(MERCHANT, event!.id, world.clock.now());
    release();
    expect(await first).toEqual(['drained', 'retry']);
    expect((await events(world))[0]).toMatchObject({ status: 'PENDING', failures: 0, dueAt: world.clock.now() + 30_000 });
    delivery.receiver.hold = undefined;
    world.clock.advance(30_000);
    expect(await delivery.sweep()).toEqual(['delivered']);
    expect((await events(world))[0]!.attempts.map((a) => a.status)).toEqual([500, 204]);
  });

  it('no webhook configured: the event is recorded NOT_CONFIGURED once and never sent', async () => {
    const world = await coreWorld();
    const delivery = deliveryOf(world);
    await authorisedPayment(world);
    expect(await delivery.sweep()).toEqual(['drained', 'not-configured']);
    expect((await events(world))[0]).toMatchObject({ status: 'NOT_CONFIGURED' });
    expect(delivery.receiver.received).toEqual([]);
  });

  it('secrets that cannot be opened (KMS down) count as a failed attempt on the same schedule', async () => {
    const world = await coreWorld();
    const delivery = deliveryOf(world);
    await delivery.configure();
    delivery.sealer.outage = true;
    await authorisedPayment(world);
    expect(await delivery.sweep()).toEqual(['drained', 'retry']);
    expect((await events(world))[0]).toMatchObject({ status: 'PENDING', failures: 1, attempts: [{ error: 'secrets-unavailable' }] });
    delivery.sealer.outage = false;
    world.clock.advance(RETRY_DELAYS_MS[0]!);
    expect(await delivery.sweep()).toEqual(['delivered']);
  });

  it('a confirmation for a network without a client fails its attempts and is retried like any other', async () => {
    const world = await coreWorld();
    const delivery = deliveryOf(world);
    await delivery.configure();
    delete (delivery.networks as Partial<typeof delivery.networks>).mastercard;
    const { ids } = await newOrder(world);
    await payWithClickToPay(world.payments, platform, ids, await checkout(world, { network: 'mastercard', card: 'mastercard-world' }), world.facts);
    expect((await delivery.sweep()).sort()).toEqual(['delivered', 'drained', 'retry']);
  });

  it('a run stops taking work once its budget is spent, and what it left stays due', async () => {
    const world = await coreWorld();
    const delivery = deliveryOf(world);
    await delivery.configure();
    await authorisedPayment(world);
    await authorisedPayment(world);
    expect(await runDelivery(delivery.worker, world.logger, undefined, 12_000)).toBe(0); // nothing beyond the reserve
    expect(await runDelivery(delivery.worker, world.logger, undefined, 60_000)).toBe(2);
    expect(delivery.receiver.received).toHaveLength(2);
  });

  it('a payment’s events arrive in the order they happened: authorised, then captured', async () => {
    const world = await coreWorld();
    const delivery = deliveryOf(world);
    await delivery.configure();
    const { ids } = await newOrder(world, { action: 'PURCHASE' });
    await payDirect(world, ids);
    await delivery.sweep();
    expect(delivery.receiver.received.map((r) => JSON.parse(r.body).type)).toEqual(['payment.authorised', 'payment.captured']);
  });
});
