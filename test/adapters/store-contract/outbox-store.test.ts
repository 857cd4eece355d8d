import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newEventId, type OutboxEvent } from '../../../lib/core/events/payment-event.js';
import type { OutboxConfirmation } from '../../../lib/core/network/confirmation.js';
import type { DueRef } from '../../../lib/core/ports/outbox-store.js';
import type { ContractStores } from './stores.js';
import { authorised, conflictOf, engine, NOW, storedPayment, stores } from './support.js';

/**
 * OutboxStore and MerchantEventStore (SPEC 4.15): a payment's outbox is cleared only while it
 * holds exactly what was moved; a delivery is stored once, claimed by one attempt while due, and
 * settled only under that claim; a redelivery restarts the schedule without cutting an attempt
 * in flight. `due` is a hint over a shared table: these tests look for their own items in it.
 */
const ALL = 1_000;

function event(merchantRef: string, at = NOW): OutboxEvent {
  const id = newEventId(at);
  return { id, type: 'payment.authorised', createdAt: new Date(at).toISOString(), merchantRef, body: JSON.stringify({ id, data: {} }) };
}

function confirmation(merchantRef: string): OutboxConfirmation {
  const id = `cnf_${randomUUID().replaceAll('-', '')}`;
  return { id, kind: 'NETWORK_CONFIRMATION', createdAt: new Date(NOW).toISOString(), merchantRef, body: JSON.stringify({ id, outcome: 'AUTHORISED' }) };
}

/** An authorised payment; `announce` is a capture whose approval announces the given event (the write appends it). */
async function authorisedWithOutbox(s: ContractStores) {
  const payment = await storedPayment(s, authorised());
  let n = 0;
  const announce = async (e: OutboxEvent) => {
    const ref = `cap-${n++}`;
    const seen = await s.operations.reserve(payment, ref, { kind: 'CAPTURE', amount: 1, state: 'PENDING', at: e.createdAt, attemptId: ref });
    await s.operations.succeed(seen, ref, { state: 'PARTIALLY_CAPTURED', capturedAmount: n, refundedAmount: 0, refundable: n }, e.createdAt, [e], NOW);
  };
  return { payment, announce };
}

/** The outbox ref `due` names for a payment whose outbox starts with `first`. */
async function outboxRefOf(s: ContractStores, first: OutboxEvent): Promise<DueRef> {
  for (const item of await s.outbox.due(NOW, ALL)) {
    if (item.kind === 'outbox' && (await s.outbox.outboxOf(item.ref))[0]?.id === first.id) return item.ref;
  }
  throw new Error('the payment’s outbox is not due');
}

const dueRefs = async (s: ContractStores, now: number) => (await s.outbox.due(now, ALL)).map((item) => JSON.stringify(item));
const attempt = (n: number) => ({ at: new Date(NOW + n).toISOString(), status: 500, durationMs: 5 });

describe(`OutboxStore contract (${engine})`, () => {
  it('a payment’s outbox is due from the write that filled it, read alone, and cleared only while it holds exactly what was seen', async () => {
    const s = await stores();
    const { announce } = await authorisedWithOutbox(s);
    const a = event('m-outbox');
    await announce(a);
    const ref = await outboxRefOf(s, a);
    expect(await s.outbox.outboxOf(ref)).toEqual([a]);
    // A later write appended meanwhile: the worker's sighting [a] is stale, nothing is cleared.
    const b = event('m-outbox', NOW + 1);
    await announce(b);
    await conflictOf(s.outbox.clearOutbox(ref, [a]));
    await s.outbox.clearOutbox(ref, [a, b]);
    expect(await s.outbox.outboxOf(ref)).toEqual([]);
    expect(await dueRefs(s, NOW + 1_000)).not.toContain(JSON.stringify({ ref, kind: 'outbox' }));
    await conflictOf(s.outbox.clearOutbox(ref, []));
  });

  it('an outbox drained by another worker and refilled with as many entries is not “the same”: clearing the old sighting is refused', async () => {
    const s = await stores();
    const { announce } = await authorisedWithOutbox(s);
    const a = event('m-outbox');
    await announce(a);
    const ref = await outboxRefOf(s, a);
    await s.outbox.clearOutbox(ref, [a]);
    const c = event('m-outbox', NOW + 2);
    await announce(c);
    await conflictOf(s.outbox.clearOutbox(ref, [a]));
    expect(await s.outbox.outboxOf(ref)).toEqual([c]);
  });

  it('a delivery is stored once (a second drain finds it and moves on), due now as a webhook; a confirmation as a confirmation', async () => {
    const s = await stores();
    const merchantRef = randomUUID();
    const e = event(merchantRef);
    const ref = await s.outbox.putEvent(e, NOW);
    expect(await s.outbox.putEvent({ ...e, body: 'changed' }, NOW + 5)).toEqual(ref);
    const [stored] = await s.outbox.list(merchantRef, undefined, 10);
    expect(stored).toEqual({ ...e, status: 'PENDING', attempts: [], failures: 0, dueAt: NOW });
    const c = confirmation(merchantRef);
    const confirmationRef = await s.outbox.putConfirmation(c, NOW);
    const due = await dueRefs(s, NOW);
    expect(due).toContain(JSON.stringify({ ref, kind: 'webhook' }));
    expect(due).toContain(JSON.stringify({ ref: confirmationRef, kind: 'confirmation' }));
    expect(await dueRefs(s, NOW - 1)).not.toContain(JSON.stringify({ ref, kind: 'webhook' }));
    expect(await s.outbox.list(merchantRef, undefined, 10)).toHaveLength(1); // confirmations are no merchant events
  });

  it('a due delivery is claimed by one attempt: the claim moves it out of due until the claim ends; a second claim gets nothing', async () => {
    const s = await stores();
    const ref = await s.outbox.putEvent(event(randomUUID()), NOW);
    expect(await s.outbox.claim(ref, NOW - 1, NOW + 30_000)).toBeUndefined(); // not due yet
    const claimed = await s.outbox.claim(ref, NOW, NOW + 30_000);
    expect(claimed).toMatchObject({ status: 'PENDING', dueAt: NOW + 30_000, failures: 0 });
    expect(await s.outbox.claim(ref, NOW + 1, NOW + 30_001)).toBeUndefined();
    expect(await dueRefs(s, NOW + 29_999)).not.toContain(JSON.stringify({ ref, kind: 'webhook' }));
    // A worker that died mid-attempt: due again when its claim ends.
    expect(await s.outbox.claim(ref, NOW + 30_000, NOW + 60_000)).toMatchObject({ dueAt: NOW + 60_000 });
    expect(await s.outbox.claim({ pk: 'no', sk: 'such' }, NOW, NOW + 1)).toBeUndefined();
  });

  it('an attempt is recorded only under the claim it was made with: a retry reschedules and counts the failure, a delivery ends it', async () => {
    const s = await stores();
    const merchantRef = randomUUID();
    const ref = await s.outbox.putEvent(event(merchantRef), NOW);
    await s.outbox.claim(ref, NOW, NOW + 30_000);
    await conflictOf(s.outbox.recordAttempt(ref, NOW + 29_999, attempt(1), { dueAt: NOW + 5_000 }));
    await s.outbox.recordAttempt(ref, NOW + 30_000, attempt(1), { dueAt: NOW + 5_000 });
    expect((await s.outbox.list(merchantRef, undefined, 1))[0]).toMatchObject({ status: 'PENDING', failures: 1, dueAt: NOW + 5_000, attempts: [attempt(1)] });
    await conflictOf(s.outbox.recordAttempt(ref, NOW + 30_000, attempt(2), { status: 'DELIVERED' })); // that claim is spent
    await s.outbox.claim(ref, NOW + 5_000, NOW + 35_000);
    await s.outbox.recordAttempt(ref, NOW + 35_000, { at: attempt(2).at, status: 204, durationMs: 3 }, { status: 'DELIVERED' });
    const [delivered] = await s.outbox.list(merchantRef, undefined, 1);
    expect(delivered).toMatchObject({ status: 'DELIVERED', failures: 1 });
    expect(delivered).not.toHaveProperty('dueAt');
    expect(await s.outbox.claim(ref, NOW + 100_000, NOW + 130_000)).toBeUndefined();
  });

  it('an attempt whose claim was lost only joins the history; the history is trimmed to the newest 30 only if nothing was appended meanwhile', async () => {
    const s = await stores();
    const merchantRef = randomUUID();
    const ref = await s.outbox.putEvent(event(merchantRef), NOW);
    await conflictOf(s.outbox.appendAttempt({ pk: 'no', sk: 'such' }, attempt(0)));
    const history = Array.from({ length: 32 }, (_, n) => attempt(n));
    for (const a of history) await s.outbox.appendAttempt(ref, a);
    // A worker saw 31 attempts; a 32nd landed meanwhile: its trim would drop it, so it is refused.
    await conflictOf(s.outbox.trimAttempts(ref, history.slice(0, 31)));
    await s.outbox.trimAttempts(ref, history);
    expect((await s.outbox.list(merchantRef, undefined, 1))[0]?.attempts).toEqual(history.slice(2));
  });

  it('a redelivery makes an event due now from the start of the schedule; one in flight keeps its attempt until the claim ends, and that attempt settles nothing', async () => {
    const s = await stores();
    const merchantRef = randomUUID();
    const delivered = event(merchantRef);
    const deliveredRef = await s.outbox.putEvent(delivered, NOW);
    await s.outbox.claim(deliveredRef, NOW, NOW + 30_000);
    await s.outbox.recordAttempt(deliveredRef, NOW + 30_000, attempt(0), { status: 'FAILED' });
    await s.outbox.redeliver(merchantRef, delivered.id, NOW + 1_000);
    expect((await s.outbox.list(merchantRef, undefined, 10)).find((e) => e.id === delivered.id)).toMatchObject({
      status: 'PENDING',
      failures: 0,
      dueAt: NOW + 1_000,
    });

    const inFlight = event(merchantRef, NOW + 1);
    const inFlightRef = await s.outbox.putEvent(inFlight, NOW);
    await s.outbox.claim(inFlightRef, NOW, NOW + 30_000);
    await s.outbox.redeliver(merchantRef, inFlight.id, NOW + 10_000);
    expect((await s.outbox.list(merchantRef, undefined, 10)).find((e) => e.id === inFlight.id)).toMatchObject({ status: 'PENDING', dueAt: NOW + 30_000 });
    await conflictOf(s.outbox.recordAttempt(inFlightRef, NOW + 30_000, attempt(1), { status: 'DELIVERED' }));

    await conflictOf(s.outbox.redeliver(merchantRef, 'evt_unknown', NOW));
  });

  it('a merchant’s events are listed oldest first, a page at a time after an event id', async () => {
    const s = await stores();
    const merchantRef = randomUUID();
    const events = [event(merchantRef, NOW), event(merchantRef, NOW + 1), event(merchantRef, NOW + 2)];
    for (const e of [...events].reverse()) await s.outbox.putEvent(e, NOW);
    await s.outbox.putEvent(event(randomUUID()), NOW);
    expect((await s.outbox.list(merchantRef, undefined, 2)).map((e) => e.id)).toEqual([events[0]!.id, events[1]!.id]);
    expect((await s.outbox.list(merchantRef, events[1]!.id, 2)).map((e) => e.id)).toEqual([events[2]!.id]);
  });
});
