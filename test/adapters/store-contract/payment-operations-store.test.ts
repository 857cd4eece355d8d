import { describe, expect, it } from 'vitest';
import { NOT_PERFORMED, type Payment, type PaymentOperation } from '../../../lib/core/domain/payment.js';
import { DependencyUnavailableError } from '../../../lib/core/errors.js';
import type { OutboxEvent } from '../../../lib/core/events/payment-event.js';
import { authorised, conflictOf, engine, NOW, storedPayment, stores } from './support.js';

/**
 * PaymentOperationsStore (lib/core/ports/payment-operations-store.ts): a reservation tests the
 * state and the remaining total and takes the amount in the same write; claims and failures
 * land only over the generation they saw; an approval only over the version it saw.
 */
const at = new Date(NOW).toISOString();
const pending = (kind: PaymentOperation['kind'], amount: number, attemptId = `attempt-${Math.random()}`): PaymentOperation => ({
  kind,
  amount,
  state: 'PENDING',
  at,
  attemptId,
  inFlightUntil: NOW + 60_000,
});
/** A claim of the reservation `seen` shows, as modify-payment.ts makes it (the reservation's attemptId kept). */
const claim = (seen: Payment, ref: string, sentBy: string) => ({
  sentBy,
  sentAt: at,
  inFlightUntil: NOW + 90_000,
  attemptId: seen.operations![ref]!.attemptId!,
});
const event = (id: string): OutboxEvent => ({ id, type: 'payment.captured', createdAt: at, merchantRef: 'm-contract', body: '{}' });

describe(`PaymentOperationsStore contract (${engine})`, () => {
  it('a capture’s reservation takes its amount from what is capturable and records the operation PENDING, in one write', async () => {
    const s = await stores();
    const payment = await storedPayment(s, authorised());
    const operation = pending('CAPTURE', 4_000);
    const reserved = await s.operations.reserve(payment, 'cap-1', operation);
    expect(reserved).toEqual({ ...payment, capturable: 6_000, operations: { 'cap-1': operation }, version: 2, updatedAt: at });
    expect(await s.payments.get(payment.orderRef, payment.paymentRef)).toEqual(reserved);
  });

  it('a reservation beyond what is left is refused, with the payment as it was; nothing is taken', async () => {
    const s = await stores();
    const payment = await storedPayment(s, authorised());
    await s.operations.reserve(payment, 'cap-1', pending('CAPTURE', 7_000));
    const before = await s.payments.get(payment.orderRef, payment.paymentRef);
    await conflictOf(s.operations.reserve(payment, 'cap-2', pending('CAPTURE', 3_001)), before);
    expect(await s.payments.get(payment.orderRef, payment.paymentRef)).toEqual(before);
    await s.operations.reserve(payment, 'cap-2', pending('CAPTURE', 3_000));
    expect((await s.payments.get(payment.orderRef, payment.paymentRef))?.capturable).toBe(0);
  });

  it('a reference already used is never reserved twice', async () => {
    const s = await stores();
    const payment = await storedPayment(s, authorised());
    await s.operations.reserve(payment, 'cap-1', pending('CAPTURE', 1_000));
    await conflictOf(s.operations.reserve(payment, 'cap-1', pending('CAPTURE', 1_000)));
    expect((await s.payments.get(payment.orderRef, payment.paymentRef))?.capturable).toBe(9_000);
  });

  it('each kind starts only from its states: no refund of an uncaptured authorization, no capture of a reversed one', async () => {
    const s = await stores();
    const uncaptured = await storedPayment(s, authorised({ refundable: 10_000 }));
    await conflictOf(s.operations.reserve(uncaptured, 'ref-1', pending('REFUND', 1_000)));
    const reversed = await storedPayment(s, authorised({ state: 'REVERSED' }));
    await conflictOf(s.operations.reserve(reversed, 'cap-1', pending('CAPTURE', 1_000)));
    const started = await storedPayment(s, { capturable: 10_000, operations: {} });
    await conflictOf(s.operations.reserve(started, 'cap-1', pending('CAPTURE', 1_000)));
  });

  it('a reversal is reserved only while everything is still capturable, and takes all of it', async () => {
    const s = await stores();
    const payment = await storedPayment(s, authorised());
    await s.operations.reserve(payment, 'cap-1', pending('CAPTURE', 1));
    await conflictOf(s.operations.reserve(payment, 'rev-1', pending('REVERSAL', 10_000)));
    const untouched = await storedPayment(s, authorised());
    const reversed = await s.operations.reserve(untouched, 'rev-1', pending('REVERSAL', 10_000));
    expect(reversed.capturable).toBe(0);
    await conflictOf(s.operations.reserve(untouched, 'cap-1', pending('CAPTURE', 1)));
  });

  it('a refund’s reservation takes from what is refundable', async () => {
    const s = await stores();
    const payment = await storedPayment(s, authorised({ state: 'CAPTURED', capturedAmount: 10_000, capturable: 0, refundable: 10_000 }));
    expect((await s.operations.reserve(payment, 'ref-1', pending('REFUND', 2_500))).refundable).toBe(7_500);
    await conflictOf(s.operations.reserve(payment, 'ref-2', pending('REFUND', 7_501)));
    expect((await s.operations.reserve(payment, 'ref-2', pending('REFUND', 7_500))).refundable).toBe(0);
  });

  it('an operation the service did not perform is reserved again only over the FAILED NOT_PERFORMED generation it saw', async () => {
    const s = await stores();
    const payment = await storedPayment(s, authorised());
    const first = pending('CAPTURE', 3_000, 'first');
    await s.operations.reserve(payment, 'cap-1', first);
    const failed = await s.operations.fail(payment, 'cap-1', first, { code: NOT_PERFORMED, reason: 'not reached' }, at);
    const seen = failed.operations!['cap-1']!;
    expect(failed.capturable).toBe(10_000);
    await conflictOf(s.operations.reserve(payment, 'cap-1', pending('CAPTURE', 3_000), { ...seen, attemptId: 'another-generation' }));
    const again = await s.operations.reserve(payment, 'cap-1', pending('CAPTURE', 3_000, 'second'), seen);
    expect(again.operations!['cap-1']).toMatchObject({ state: 'PENDING', attemptId: 'second' });
    expect(again.capturable).toBe(7_000);
    await conflictOf(s.operations.reserve(payment, 'cap-1', pending('CAPTURE', 3_000, 'third'), seen));
  });

  it('an operation the acquirer refused is never reserved again', async () => {
    const s = await stores();
    const payment = await storedPayment(s, authorised());
    const first = pending('CAPTURE', 3_000);
    await s.operations.reserve(payment, 'cap-1', first);
    const failed = await s.operations.fail(payment, 'cap-1', first, { code: 'DO_NOT_HONOUR', reason: 'refused' }, at);
    await conflictOf(s.operations.reserve(payment, 'cap-1', pending('CAPTURE', 3_000), failed.operations!['cap-1']));
  });

  it('one claim per generation lands: a second claim over the same sighting is refused', async () => {
    const s = await stores();
    const payment = await storedPayment(s, authorised());
    const seen = await s.operations.reserve(payment, 'cap-1', pending('CAPTURE', 1_000));
    const claimed = await s.operations.claim(seen, 'cap-1', claim(seen, 'cap-1', 'a'));
    expect(claimed.operations!['cap-1']).toMatchObject({
      state: 'PENDING',
      sentBy: 'a',
      sentAt: at,
      inFlightUntil: NOW + 90_000,
      attemptId: seen.operations!['cap-1']!.attemptId,
    });
    expect(claimed.version).toBe(seen.version + 1);
    await conflictOf(s.operations.claim(seen, 'cap-1', claim(seen, 'cap-1', 'b')), claimed);
    // To send again, a claim names the claim it saw.
    expect((await s.operations.claim(claimed, 'cap-1', claim(claimed, 'cap-1', 'c'))).operations!['cap-1']!.sentBy).toBe('c');
  });

  it('an approval lands only over the version seen and while the operation is pending; it moves the totals and the state and announces its events', async () => {
    const s = await stores();
    const payment = await storedPayment(s, authorised());
    const reserved = await s.operations.reserve(payment, 'cap-1', pending('CAPTURE', 4_000));
    const seen = await s.operations.claim(reserved, 'cap-1', claim(reserved, 'cap-1', 'a'));
    const totals = { state: 'PARTIALLY_CAPTURED' as const, capturedAmount: 4_000, refundedAmount: 0, refundable: 4_000 };
    await conflictOf(s.operations.succeed({ ...seen, version: seen.version - 1 }, 'cap-1', totals, at, [], NOW));
    const settled = await s.operations.succeed(seen, 'cap-1', totals, at, [event('evt_cap')], NOW);
    const { inFlightUntil: _gone, ...operation } = seen.operations!['cap-1']!;
    expect(settled).toEqual({
      ...seen,
      ...totals,
      operations: { 'cap-1': { ...operation, state: 'SUCCEEDED', settledAt: at } },
      version: seen.version + 1,
      updatedAt: at,
    });
    await conflictOf(s.operations.succeed(settled, 'cap-1', totals, at, [], NOW));
  });

  it('a failure gives the reservation back where it came from (a reversal: the whole authorization), only over the generation it saw', async () => {
    const s = await stores();
    const payment = await storedPayment(s, authorised());
    const reserved = await s.operations.reserve(payment, 'cap-1', pending('CAPTURE', 4_000));
    const sighting = reserved.operations!['cap-1']!;
    const claimed = await s.operations.claim(reserved, 'cap-1', claim(reserved, 'cap-1', 'a'));
    // A late failure meant for the unclaimed reservation never lands on the claim that followed.
    await conflictOf(s.operations.fail(payment, 'cap-1', sighting, { code: NOT_PERFORMED, reason: 'late' }, at), claimed);
    const failed = await s.operations.fail(payment, 'cap-1', claimed.operations!['cap-1']!, { code: 'DO_NOT_HONOUR', reason: 'refused' }, at);
    expect(failed.capturable).toBe(10_000);
    expect(failed.operations!['cap-1']).toEqual({
      ...claimed.operations!['cap-1']!,
      inFlightUntil: undefined,
      state: 'FAILED',
      failure: { code: 'DO_NOT_HONOUR', reason: 'refused' },
      settledAt: at,
    });
    expect(failed.operations!['cap-1']).not.toHaveProperty('inFlightUntil');

    const reversal = await storedPayment(s, authorised());
    const reversing = await s.operations.reserve(reversal, 'rev-1', pending('REVERSAL', 10_000));
    expect((await s.operations.fail(reversal, 'rev-1', reversing.operations!['rev-1']!, { code: 'X', reason: 'y' }, at)).capturable).toBe(10_000);

    const captured = await storedPayment(s, authorised({ state: 'CAPTURED', capturedAmount: 10_000, capturable: 0, refundable: 10_000 }));
    const refunding = await s.operations.reserve(captured, 'ref-1', pending('REFUND', 2_000));
    expect((await s.operations.fail(captured, 'ref-1', refunding.operations!['ref-1']!, { code: 'X', reason: 'y' }, at)).refundable).toBe(10_000);
  });

  it('a payment whose outbox holds 10 undelivered events takes no new operation (503, retry shortly): the approval’s write must never outgrow the record', async () => {
    const s = await stores();
    const payment = await storedPayment(s, authorised());
    const seen = await s.operations.reserve(payment, 'cap-1', pending('CAPTURE', 1_000));
    const events = Array.from({ length: 10 }, (_, n) => event(`evt_${n}`));
    await s.operations.succeed(seen, 'cap-1', { state: 'PARTIALLY_CAPTURED', capturedAmount: 1_000, refundedAmount: 0, refundable: 1_000 }, at, events, NOW);
    await expect(s.operations.reserve(payment, 'cap-2', pending('CAPTURE', 1_000))).rejects.toMatchObject({
      code: 'DEPENDENCY_UNAVAILABLE',
      retryAfterMs: 5_000,
    });
    await expect(s.operations.reserve(payment, 'cap-2', pending('CAPTURE', 1_000))).rejects.toBeInstanceOf(DependencyUnavailableError);
    expect((await s.payments.get(payment.orderRef, payment.paymentRef))?.capturable).toBe(9_000);
  });

  it('what reserve answers is a copy: changing it changes nothing stored', async () => {
    const s = await stores();
    const payment = await storedPayment(s, authorised());
    const reserved: Payment = await s.operations.reserve(payment, 'cap-1', pending('CAPTURE', 1_000));
    reserved.operations!['cap-1']!.state = 'SUCCEEDED';
    expect((await s.payments.get(payment.orderRef, payment.paymentRef))?.operations?.['cap-1']?.state).toBe('PENDING');
  });
});
