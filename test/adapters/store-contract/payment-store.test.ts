import { describe, expect, it } from 'vitest';
import { LEASE_RULE } from '../../../lib/core/domain/lease-rule.js';
import type { Payment } from '../../../lib/core/domain/payment.js';
import type { OutboxEvent } from '../../../lib/core/events/payment-event.js';
import type { LeaseRequest } from '../../../lib/core/ports/payment-store.js';
import { conflictOf, engine, NOW, storedPayment, stores } from './support.js';

/**
 * PaymentStore (lib/core/ports/payment-store.ts): the lease conditions are LEASE_RULE's clauses,
 * evaluated by the store in the same write that takes the lease; only the holder finishes,
 * releases or parks it. Every assertion here runs against the in-memory store and the DynamoDB
 * store alike.
 */
const masked = { type: 'DIRECT_WALLET' as const, brand: 'VISA', tokenLastFour: '3478' };

function lease(overrides: Partial<LeaseRequest> = {}): LeaseRequest {
  return {
    from: 'STARTED',
    leaseId: `lease-${Math.random()}`,
    leaseUntil: NOW + 30_000,
    now: NOW,
    credential: 'direct:card-a',
    requires: LEASE_RULE.fresh('STARTED'),
    ...overrides,
  };
}

const event = (id: string): OutboxEvent => ({ id, type: 'payment.authorised', createdAt: new Date(NOW).toISOString(), merchantRef: 'm-contract', body: '{}' });

describe(`PaymentStore contract (${engine})`, () => {
  it('get answers the payment as created, and undefined for one that does not exist', async () => {
    const s = await stores();
    const payment = await storedPayment(s);
    expect(await s.payments.get(payment.orderRef, payment.paymentRef)).toEqual(payment);
    expect(await s.payments.get(payment.orderRef, 'no-such-payment')).toBeUndefined();
  });

  it('a fresh lease takes a STARTED payment: PROCESSING under the lease, one version on, the lease’s facts recorded; not a takeover', async () => {
    const s = await stores();
    const payment = await storedPayment(s);
    const request = lease({ masked, payerIp: '203.0.113.9', srcCheckout: { network: 'visa', srcCorrelationId: 'corr-1' } });
    const taken = await s.payments.acquireLease(payment, request);
    const expected: Payment = {
      ...payment,
      state: 'PROCESSING',
      leaseId: request.leaseId,
      leaseUntil: request.leaseUntil,
      leaseFrom: 'STARTED',
      leaseCredential: request.credential,
      leaseMasked: masked,
      payerIp: '203.0.113.9',
      srcCheckout: { network: 'visa', srcCorrelationId: 'corr-1' },
      version: 2,
      updatedAt: new Date(NOW).toISOString(),
    };
    expect(await s.payments.get(payment.orderRef, payment.paymentRef)).toEqual(expected);
    expect(taken.takeover).toBe(false);
    expect(taken.parkedUntil).toBeUndefined();
    if (taken.leased) expect(taken.leased).toEqual(expected);
    else expect(engine).toBe('dynamodb'); // an engine that sends nothing back: the caller does without
  });

  it('a lease whose clauses the payment does not satisfy is refused with the payment as it was, and nothing changes', async () => {
    const s = await stores();
    const payment = await storedPayment(s);
    await conflictOf(s.payments.acquireLease(payment, lease({ from: 'AWAIT_3DS', requires: LEASE_RULE.fresh('AWAIT_3DS') })), payment);
    await conflictOf(s.payments.acquireLease(payment, lease({ requires: LEASE_RULE.takeover('STARTED', 'direct:card-a', NOW) })), payment);
    expect(await s.payments.get(payment.orderRef, payment.paymentRef)).toEqual(payment);
  });

  it('a lease on a payment that does not exist is refused, with no record', async () => {
    const s = await stores();
    await conflictOf(s.payments.acquireLease({ orderRef: 'no-order', paymentRef: 'no-payment' }, lease()), 'absent');
  });

  it('a second fresh lease on a leased payment is refused: one attempt at a time', async () => {
    const s = await stores();
    const payment = await storedPayment(s);
    await s.payments.acquireLease(payment, lease({ leaseId: 'first' }));
    const refusal = await conflictOf(s.payments.acquireLease(payment, lease({ leaseId: 'second' })));
    if (refusal.current) expect(refusal.current).toMatchObject({ state: 'PROCESSING', leaseId: 'first' });
  });

  it('a takeover needs every clause: the lease expired, taken from the same origin, by the same credential', async () => {
    const s = await stores();
    const payment = await storedPayment(s);
    await s.payments.acquireLease(payment, lease({ leaseId: 'crashed', leaseUntil: NOW + 1_000 }));
    const later = NOW + 5_000;
    const takeover = (credential: string, from: 'STARTED' | 'AWAIT_3DS', now: number) =>
      s.payments.acquireLease(
        payment,
        lease({ leaseId: `by-${credential}-${from}-${now}`, from, credential, now, requires: LEASE_RULE.takeover(from, credential, now) }),
      );
    await conflictOf(takeover('direct:card-a', 'STARTED', NOW + 1_000)); // not expired yet (expiry is strict)
    await conflictOf(takeover('direct:card-b', 'STARTED', later)); // another credential
    await conflictOf(takeover('direct:card-a', 'AWAIT_3DS', later)); // another origin
    const taken = await takeover('direct:card-a', 'STARTED', later);
    expect(taken.takeover).toBe(true);
    expect(await s.payments.get(payment.orderRef, payment.paymentRef)).toMatchObject({ leaseId: `by-direct:card-a-STARTED-${later}`, version: 3 });
  });

  it('a takeover of a parked lease reports until when the earlier call may still land, and keeps that bound on the payment', async () => {
    const s = await stores();
    const payment = await storedPayment(s);
    await s.payments.acquireLease(payment, lease({ leaseId: 'parked' }));
    await s.payments.park(payment, 'parked', NOW + 100, NOW + 60_000);
    const now = NOW + 200;
    const taken = await s.payments.acquireLease(payment, lease({ leaseId: 'back', now, requires: LEASE_RULE.takeover('STARTED', 'direct:card-a', now) }));
    expect(taken).toMatchObject({ takeover: true, parkedUntil: NOW + 60_000 });
    expect(await s.payments.get(payment.orderRef, payment.paymentRef)).toMatchObject({ leaseId: 'back', parkedUntil: NOW + 60_000 });
  });

  it('a takeover without a masked card keeps the one the earlier lease recorded', async () => {
    const s = await stores();
    const payment = await storedPayment(s);
    await s.payments.acquireLease(payment, lease({ leaseId: 'first', leaseUntil: NOW, masked }));
    const now = NOW + 1;
    await s.payments.acquireLease(payment, lease({ leaseId: 'again', now, requires: LEASE_RULE.takeover('STARTED', 'direct:card-a', now) }));
    expect((await s.payments.get(payment.orderRef, payment.paymentRef))?.leaseMasked).toEqual(masked);
  });

  it('only the holder finishes: the patch lands, the lease’s fields go, settledBy and settledCredential name who settled it, its events wait in the outbox, due', async () => {
    const s = await stores();
    const payment = await storedPayment(s);
    await s.payments.acquireLease(payment, lease({ leaseId: 'holder', masked }));
    await conflictOf(s.payments.finish(payment, 'someone-else', { state: 'FAILED' }, undefined, [], NOW));
    const authorization = { code: 'A1B2C3', resultCode: '00', at: new Date(NOW).toISOString() };
    const finished = await s.payments.finish(
      payment,
      'holder',
      {
        state: 'AUTHORISED',
        authorization,
        paymentMethod: masked,
        capturedAmount: 0,
        refundedAmount: 0,
        capturable: 10_000,
        refundable: 0,
        operations: {},
        eci: undefined,
      },
      'direct:card-a',
      [event('evt_1')],
      NOW + 50,
    );
    const expected: Payment = {
      ...payment,
      state: 'AUTHORISED',
      authorization,
      paymentMethod: masked,
      capturedAmount: 0,
      refundedAmount: 0,
      capturable: 10_000,
      refundable: 0,
      operations: {},
      version: 3,
      updatedAt: new Date(NOW + 50).toISOString(),
      settledBy: 'holder',
      settledCredential: 'direct:card-a',
    };
    expect(finished).toEqual(expected);
    expect(await s.payments.get(payment.orderRef, payment.paymentRef)).toEqual(expected);
    const due = (await s.outbox.due(NOW + 50, 1000)).filter((item) => item.kind === 'outbox');
    const outboxes = await Promise.all(due.map((item) => s.outbox.outboxOf(item.ref)));
    expect(outboxes).toContainEqual([event('evt_1')]);
  });

  it('a finish after the lease was finished is refused with the settled payment (the retry of a landed write recognises it by settledBy)', async () => {
    const s = await stores();
    const payment = await storedPayment(s);
    await s.payments.acquireLease(payment, lease({ leaseId: 'holder' }));
    const settled = await s.payments.finish(payment, 'holder', { state: 'FAILED', failure: { code: 'DO_NOT_HONOUR', reason: 'no' } }, undefined, [], NOW);
    const refusal = await conflictOf(s.payments.finish(payment, 'holder', { state: 'FAILED' }, undefined, [], NOW), settled);
    if (refusal.current) expect((refusal.current as unknown as Payment).settledBy).toBe('holder');
  });

  it('given what the write leaves (`settled`), finish answers exactly that and stores the same', async () => {
    const s = await stores();
    const payment = await storedPayment(s);
    await s.payments.acquireLease(payment, lease({ leaseId: 'holder' }));
    const leased = (await s.payments.get(payment.orderRef, payment.paymentRef))!;
    const { leaseId: _l, leaseUntil: _u, leaseFrom: _f, leaseCredential: _c, ...rest } = leased;
    const settled: Payment = {
      ...rest,
      state: 'FAILED',
      failure: { code: 'X', reason: 'y' },
      version: 3,
      updatedAt: new Date(NOW).toISOString(),
      settledBy: 'holder',
    };
    expect(await s.payments.finish(payment, 'holder', { state: 'FAILED', failure: { code: 'X', reason: 'y' } }, undefined, [], NOW, settled)).toBe(settled);
    expect(await s.payments.get(payment.orderRef, payment.paymentRef)).toEqual(settled);
  });

  it('only the holder releases: the payment goes back to where the lease came from, free for any credential', async () => {
    const s = await stores();
    const payment = await storedPayment(s);
    await s.payments.acquireLease(payment, lease({ leaseId: 'holder', masked }));
    await conflictOf(s.payments.release(payment, 'someone-else', 'STARTED', NOW));
    await s.payments.release(payment, 'holder', 'STARTED', NOW + 10);
    expect(await s.payments.get(payment.orderRef, payment.paymentRef)).toEqual({ ...payment, version: 3, updatedAt: new Date(NOW + 10).toISOString() });
  });

  it('only the holder parks: the lease expires now and the payment remembers until when the call may land', async () => {
    const s = await stores();
    const payment = await storedPayment(s);
    await s.payments.acquireLease(payment, lease({ leaseId: 'holder' }));
    await conflictOf(s.payments.park(payment, 'someone-else', NOW, NOW + 60_000));
    await s.payments.park(payment, 'holder', NOW + 10, NOW + 60_000);
    expect(await s.payments.get(payment.orderRef, payment.paymentRef)).toMatchObject({
      state: 'PROCESSING',
      leaseId: 'holder',
      leaseUntil: NOW + 10,
      parkedUntil: NOW + 60_000,
      version: 3,
    });
  });

  it('a pending 3DS record is absent once expired, and gone once deleted', async () => {
    const s = await stores();
    const payment = await storedPayment(s);
    const pending = {
      jwe: 'a.b.c.d.e',
      source: 'CLICK_TO_PAY' as const,
      transactionId: 't',
      acsTransactionId: 'a',
      environment: 'sandbox',
      expiresAt: NOW / 1000 + 60,
    };
    await s.payments.putPendingThreeDs(payment.orderRef, payment.paymentRef, pending);
    expect(await s.payments.getPendingThreeDs(payment.orderRef, payment.paymentRef, NOW + 59_999)).toEqual(pending);
    expect(await s.payments.getPendingThreeDs(payment.orderRef, payment.paymentRef, NOW + 60_000)).toBeUndefined();
    await s.payments.deletePendingThreeDs(payment.orderRef, payment.paymentRef);
    expect(await s.payments.getPendingThreeDs(payment.orderRef, payment.paymentRef, NOW)).toBeUndefined();
    expect(await s.payments.get(payment.orderRef, payment.paymentRef)).toEqual(payment);
  });

  it('what the store hands out is a copy: changing it changes nothing stored', async () => {
    const s = await stores();
    const payment = await storedPayment(s);
    const read = (await s.payments.get(payment.orderRef, payment.paymentRef))!;
    read.state = 'AUTHORISED';
    read.amount.value = 1;
    payment.amount.value = 2;
    expect(await s.payments.get(payment.orderRef, payment.paymentRef)).toMatchObject({ state: 'STARTED', amount: { value: 10_000 } });
  });
});
