/**
 * SPEC §4.15 at most once per attempt, nothing lost: the outbox on the payment item and the
 * event items are drained and sent by workers that run at the same time (stream, schedule,
 * redelivery), while the payment keeps changing.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { dueItemOf } from '../../lib/adapters/dynamodb/due-items.js';
import { eventKey } from '../../lib/adapters/dynamodb/event-repository.js';
import { drainOutbox, processDue } from '../../lib/core/outbox/worker.js';
import { aed, authorizedWorld, capture, refund } from '../support/lifecycle.js';
import { platformToken } from '../support/tokens.js';
import { webhookDeliveryHarness } from '../support/webhook-delivery.js';

let token: string;
beforeAll(async () => {
  token = await platformToken();
});
const { logger, closers, paymentKey, slowReceiver, worker, sweepAll, storedEvents, redeliver } = webhookDeliveryHarness(() => token);
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(closers.splice(0).map((close) => close()));
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the outbox and the delivery worker under concurrency: every event stored once, sent once, none lost', () => {
  it('two workers draining one outbox while the payment changes again lose no event', async () => {
    const w = await authorizedWorld({ amount: 1000 });
    const receiver = await slowReceiver(0);
    const a = worker(w.merchantRef, receiver.url);
    const b = worker(w.merchantRef, receiver.url);
    // B has read the outbox [authorised] and stored it; before B clears, A drains it too and
    // a capture appends [partially_captured]: an outbox of the same length B saw.
    const clearB = b.store.clearOutbox.bind(b.store);
    vi.spyOn(b.store, 'clearOutbox').mockImplementationOnce(async (key, count) => {
      expect(await drainOutbox(a, key)).toHaveLength(1);
      expect((await capture(w, token, aed(100))).status).toBe(201);
      return clearB(key, count);
    });
    await drainOutbox(b, paymentKey(w));
    await sweepAll(a);
    await sweepAll(a);
    const types = (await storedEvents(w.merchantRef)).map((e) => e.type);
    expect(types).toEqual(['payment.authorised', 'payment.partially_captured']);
    expect(receiver.received.map((r) => JSON.parse(r.body).type).sort()).toEqual(['payment.authorised', 'payment.partially_captured']);
  });

  it('one outbox drained by four workers at once: each event stored once and sent once', async () => {
    const w = await authorizedWorld({ amount: 1000 });
    await capture(w, token, aed(100));
    await refund(w, token, aed(50));
    const receiver = await slowReceiver(50);
    const workers = Array.from({ length: 4 }, () => worker(w.merchantRef, receiver.url));
    await Promise.all(workers.map((deps) => processDue(deps, dueItemOf(paymentKey(w).pk, paymentKey(w).sk), logger)));
    await Promise.all(workers.map(sweepAll));
    const stored = await storedEvents(w.merchantRef);
    expect(stored.map((e) => e.type)).toEqual(['payment.authorised', 'payment.partially_captured', 'payment.partially_refunded']);
    expect(receiver.received).toHaveLength(3);
    expect(new Set(receiver.received.map((r) => r.id)).size).toBe(3);
    expect(receiver.maxInFlight()).toBeLessThanOrEqual(3); // never the same event twice at once
  });

  it('two sweeps of a due event at the same moment send it once', async () => {
    const w = await authorizedWorld({ amount: 1000 });
    const receiver = await slowReceiver(100);
    const first = worker(w.merchantRef, receiver.url);
    await drainOutbox(first, paymentKey(w)); // the event item, due now, not yet sent
    const [event] = await storedEvents(w.merchantRef);
    const sweeps = Array.from({ length: 6 }, () => worker(w.merchantRef, receiver.url));
    await Promise.all(sweeps.map((deps) => processDue(deps, { ref: eventKey(w.merchantRef, event!.id), kind: 'webhook' }, logger)));
    expect(receiver.received).toHaveLength(1);
    expect((await storedEvents(w.merchantRef))[0]).toMatchObject({ status: 'DELIVERED', attempts: [{ status: 200 }] });
  });

  it('a redelivery while an attempt is in flight never has the event sent twice at once, and the attempt is recorded', async () => {
    const w = await authorizedWorld({ amount: 1000 });
    const receiver = await slowReceiver(400);
    const a = worker(w.merchantRef, receiver.url);
    const b = worker(w.merchantRef, receiver.url);
    await drainOutbox(a, paymentKey(w));
    const [event] = await storedEvents(w.merchantRef);
    const key = eventKey(w.merchantRef, event!.id);
    const running = processDue(a, { ref: key, kind: 'webhook' }, logger);
    while (receiver.inFlight() === 0) await sleep(10); // A's POST is at the receiver
    const asked = await redeliver(w.merchantRef, event!.id);
    expect(asked.status, asked.raw).toBe(202);
    await processDue(b, { ref: key, kind: 'webhook' }, logger); // a second worker right after the redelivery
    await running;
    expect(receiver.maxInFlight()).toBe(1);
    const [after] = await storedEvents(w.merchantRef);
    expect(after!.attempts.filter((attempt) => attempt.status === 200).length).toBe(receiver.received.length);
    expect(after!.status).toBe('PENDING'); // the redelivery is still owed: due once A's claim is over
    expect(after!.dueAt).toBeGreaterThan(Date.now());
    const later = { ...b, now: () => Date.now() + 15_001 };
    expect(await processDue(later, { ref: key, kind: 'webhook' }, logger)).toEqual(['delivered']);
    expect(receiver.received).toHaveLength(2);
    expect((await storedEvents(w.merchantRef))[0]).toMatchObject({ status: 'DELIVERED', attempts: [{ status: 200 }, { status: 200 }] });
  });
});
