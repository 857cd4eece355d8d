import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { HostedSession } from '../../../lib/core/domain/hosted-session.js';
import { conflictOf, engine, NOW, newOrder, newPayment, stores } from './support.js';

/** OrderStore and SessionStore: create-only writes; reads that see them at once. */
describe(`OrderStore contract (${engine})`, () => {
  it('an order is read back with all its payments, by reference', async () => {
    const s = await stores();
    const order = newOrder();
    const first = newPayment(order);
    await s.orders.create(order, first);
    const retry = newPayment(order, { attempt: 2 });
    await s.orders.addPayment(retry);
    const snapshot = await s.orders.get(order.orderRef);
    expect(snapshot?.order).toEqual(order);
    expect(snapshot?.payments).toHaveLength(2);
    expect(snapshot?.payments).toEqual(expect.arrayContaining([first, retry]));
    expect(snapshot?.payments.map((payment) => payment.paymentRef)).toEqual([first.paymentRef, retry.paymentRef].sort());
  });

  it('an order that does not exist reads as undefined — also when only its payment was written (a create that stopped half-way)', async () => {
    const s = await stores();
    expect(await s.orders.get(randomUUID())).toBeUndefined();
    const order = newOrder();
    await s.orders.addPayment(newPayment(order));
    expect(await s.orders.get(order.orderRef)).toBeUndefined();
  });

  it('create and addPayment are create-only: an existing order or paymentRef is never overwritten', async () => {
    const s = await stores();
    const order = newOrder();
    const payment = newPayment(order);
    await s.orders.create(order, payment);
    await conflictOf(s.orders.addPayment({ ...payment, state: 'AUTHORISED' }));
    await conflictOf(s.orders.create({ ...order, merchantRef: 'someone-else' }, newPayment(order)));
    const snapshot = await s.orders.get(order.orderRef);
    expect(snapshot?.order.merchantRef).toBe('m-contract');
    expect(snapshot?.payments.find((p) => p.paymentRef === payment.paymentRef)?.state).toBe('STARTED');
  });
});

describe(`SessionStore contract (${engine})`, () => {
  const session = (overrides: Partial<HostedSession> = {}): HostedSession => ({
    tokenHash: randomUUID().replaceAll('-', ''),
    orderRef: randomUUID(),
    outletId: 'o-contract',
    merchantRef: 'm-contract',
    tenantRef: 't-contract',
    expiresAt: Math.floor(NOW / 1000) + 900,
    createdAt: new Date(NOW).toISOString(),
    ...overrides,
  });

  it('a session is created once per token hash and read back — even after it expired (the caller decides)', async () => {
    const s = await stores();
    const expired = session({ expiresAt: Math.floor(NOW / 1000) - 1, returnUrl: 'https://shop.example/back', shopName: 'Shop' });
    await s.sessions.create(expired);
    expect(await s.sessions.findByTokenHash(expired.tokenHash)).toEqual(expired);
    await conflictOf(s.sessions.create({ ...expired, orderRef: 'another-order' }));
    expect((await s.sessions.findByTokenHash(expired.tokenHash))?.orderRef).toBe(expired.orderRef);
    expect(await s.sessions.findByTokenHash('unknown')).toBeUndefined();
  });

  it('findWithPayment reads the session with its order and the one payment named, in one go', async () => {
    const s = await stores();
    const order = newOrder();
    const payment = newPayment(order);
    await s.orders.create(order, payment);
    await s.orders.addPayment(newPayment(order, { attempt: 2 }));
    const minted = session({ orderRef: order.orderRef });
    await s.sessions.create(minted);
    expect(await s.sessions.findWithPayment(minted.tokenHash, { orderRef: order.orderRef, paymentRef: payment.paymentRef })).toEqual({
      session: minted,
      order: { order, payments: [payment] },
    });
    expect(await s.sessions.findWithPayment('unknown', { orderRef: randomUUID(), paymentRef: randomUUID() })).toEqual({ session: undefined, order: undefined });
  });
});
