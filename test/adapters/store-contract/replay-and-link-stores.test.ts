import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { PaymentLink } from '../../../lib/core/domain/payment-link.js';
import { conflictOf, engine, NOW, stores } from './support.js';

/** ReplayStore (SPEC 4.3 step 4) and LinkStore (SPEC 4.14). */
describe(`ReplayStore contract (${engine})`, () => {
  const refusal = { code: 'CHECKOUT_PAYLOAD_INVALID' as const, detail: 'The payment data is invalid.' };

  it('a checkout response is claimed by one payment: another is told who holds it, the same one claims again', async () => {
    const s = await stores();
    const key = randomUUID();
    expect(await s.replay.claim(key, 'p-1', NOW)).toEqual({ outcome: 'claimed' });
    expect(await s.replay.claim(key, 'p-2', NOW)).toEqual({ outcome: 'held', paymentRef: 'p-1' });
    expect(await s.replay.claim(key, 'p-1', NOW + 1_000)).toEqual({ outcome: 'claimed' });
  });

  it('an expired claim counts as absent: another payment takes it over', async () => {
    const s = await stores();
    const key = randomUUID();
    await s.replay.claim(key, 'p-1', NOW);
    const dayLater = NOW + 24 * 3600 * 1000;
    expect(await s.replay.claim(key, 'p-2', dayLater)).toEqual({ outcome: 'held', paymentRef: 'p-1' });
    expect(await s.replay.claim(key, 'p-2', dayLater + 1_000)).toEqual({ outcome: 'claimed' });
  });

  it('a refusal is recorded only by the payment holding the claim, and answered only to that payment', async () => {
    const s = await stores();
    const key = randomUUID();
    await s.replay.claim(key, 'p-1', NOW);
    await conflictOf(s.replay.refuse(key, 'p-2', refusal));
    await conflictOf(s.replay.refuse(randomUUID(), 'p-1', refusal));
    await s.replay.refuse(key, 'p-1', refusal);
    expect(await s.replay.claim(key, 'p-1', NOW + 1)).toEqual({ outcome: 'claimed', refused: refusal });
    // Another payment, once the claim expired: the earlier payment's refusal is not its own.
    expect(await s.replay.claim(key, 'p-2', NOW + 25 * 3600 * 1000)).toEqual({ outcome: 'claimed' });
  });
});

describe(`LinkStore contract (${engine})`, () => {
  const link = (overrides: Partial<PaymentLink> = {}): PaymentLink => ({
    linkRef: `pl_${randomUUID()}`,
    outletId: 'o-contract',
    merchantRef: 'm-contract',
    tenantRef: 't-contract',
    action: 'AUTH',
    amount: { currencyCode: 'AED', value: 5_000 },
    expiresAt: new Date(NOW + 7 * 86_400_000).toISOString(),
    createdAt: new Date(NOW).toISOString(),
    ...overrides,
  });
  const at = (ms: number) => new Date(NOW + ms).toISOString();

  it('a link is created once and read back', async () => {
    const s = await stores();
    const created = link({ description: 'Invoice 7' });
    await s.links.create(created);
    await conflictOf(s.links.create({ ...created, description: 'Overwritten' }));
    expect(await s.links.get(created.linkRef)).toEqual(created);
    expect(await s.links.get('pl_unknown')).toBeUndefined();
  });

  it('its one order is attached once, and never to a cancelled link', async () => {
    const s = await stores();
    const open = link();
    await s.links.create(open);
    await s.links.attachOrder(open.linkRef, 'order-1');
    await conflictOf(s.links.attachOrder(open.linkRef, 'order-2'));
    expect((await s.links.get(open.linkRef))?.orderRef).toBe('order-1');
    const cancelled = link();
    await s.links.create(cancelled);
    await s.links.cancel(cancelled.linkRef, at(0), 'cancel-1');
    await conflictOf(s.links.attachOrder(cancelled.linkRef, 'order-3'));
    await conflictOf(s.links.attachOrder('pl_unknown', 'order-4'), 'absent');
  });

  it('a link is cancelled once, only before it expires, under the cancel request’s id', async () => {
    const s = await stores();
    const created = link({ expiresAt: at(60_000) });
    await s.links.create(created);
    await conflictOf(s.links.cancel(created.linkRef, at(60_000), 'too-late'), created);
    const cancelled = await s.links.cancel(created.linkRef, at(1_000), 'cancel-1');
    expect(cancelled).toEqual({ ...created, cancelledAt: at(1_000), cancelId: 'cancel-1' });
    await conflictOf(s.links.cancel(created.linkRef, at(2_000), 'cancel-2'), cancelled);
  });

  it('a cancel is undone by its own id while no payment made it final; once final, it stands', async () => {
    const s = await stores();
    const created = link();
    await s.links.create(created);
    await s.links.cancel(created.linkRef, at(0), 'cancel-1');
    expect(await s.links.undoCancel(created.linkRef, 'someone-elses')).toBe('undone'); // not this cancel: nothing to undo
    expect(await s.links.get(created.linkRef)).toMatchObject({ cancelId: 'cancel-1' });
    expect(await s.links.undoCancel(created.linkRef, 'cancel-1')).toBe('undone');
    expect(await s.links.get(created.linkRef)).toEqual(created);
    expect(await s.links.undoCancel(created.linkRef, 'cancel-1')).toBe('undone'); // a retry of the undo that landed

    await s.links.cancel(created.linkRef, at(1), 'cancel-2');
    await s.links.makeCancelFinal(created.linkRef, at(2));
    await s.links.makeCancelFinal(created.linkRef, at(3));
    expect(await s.links.undoCancel(created.linkRef, 'cancel-2')).toBe('final');
    expect(await s.links.get(created.linkRef)).toMatchObject({ cancelledAt: at(1), cancelId: 'cancel-2', cancelFinalAt: at(2) });
  });

  it('only a cancelled link can be made final (a payment that saw a cancel since undone carries on)', async () => {
    const s = await stores();
    const created = link();
    await s.links.create(created);
    await conflictOf(s.links.makeCancelFinal(created.linkRef, at(0)));
    expect(await s.links.get(created.linkRef)).toEqual(created);
  });
});
