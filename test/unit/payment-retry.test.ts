/** lib/core/domain/payment-retry.ts: when an order may get another payment, and in which order payments are listed. */
import { describe, expect, it } from 'vitest';
import { orderState } from '../../lib/core/domain/order.js';
import { failureAllowsRetry, inAttemptOrder, MAX_PAYMENTS_PER_ORDER, nextPaymentRef, retryRefusal } from '../../lib/core/domain/payment-retry.js';
import type { Payment, PaymentState } from '../../lib/core/domain/payment.js';
import { toPaymentResource } from '../../lib/http/resources/payment-resource.js';

const payment = (state: PaymentState, extra: Partial<Payment> = {}): Payment => ({
  paymentRef: crypto.randomUUID(),
  orderRef: 'o-1',
  outletId: 'out-1',
  state,
  amount: { currencyCode: 'AED', value: 1000 },
  version: 1,
  createdAt: '2026-11-23T10:00:00.000Z',
  updatedAt: '2026-11-23T10:00:00.000Z',
  ...extra,
});
const declined = (code: string, extra: Partial<Payment> = {}) => payment('FAILED', { failure: { code, reason: code }, ...extra });

describe('retryRefusal', () => {
  it.each(['INSUFFICIENT_FUNDS', 'DO_NOT_HONOUR', 'CARD_EXPIRED', 'THREE_DS_FAILED', 'THREE_DS_EXPIRED'])('allows a retry after %s', (code) => {
    expect(retryRefusal([declined(code)])).toBeUndefined();
  });

  it.each(['STOLEN_CARD', 'LOST_CARD', 'PICK_UP_CARD', 'SUSPECTED_FRAUD', 'TRANSACTION_NOT_PERMITTED', 'NO_AUTHORIZATION', ''])('refuses after %j', (code) => {
    expect(retryRefusal([declined(code)])).toMatch(/cannot fix/);
  });

  it.each(['STARTED', 'PROCESSING', 'AWAIT_3DS', 'AUTHORISED', 'CAPTURED', 'REVERSED', 'REFUNDED'] as const)('refuses while any payment is %s', (state) => {
    expect(retryRefusal([declined('CARD_EXPIRED', { attempt: 2 }), payment(state)])).toMatch(/all failed/);
  });

  it('refuses an order without payments', () => {
    expect(retryRefusal([])).toBeDefined();
  });

  it('refuses once the order has MAX_PAYMENTS_PER_ORDER payments, and the last one says retryable: false', () => {
    const attempts = Array.from({ length: MAX_PAYMENTS_PER_ORDER }, (_, i) => declined('INSUFFICIENT_FUNDS', { attempt: i + 1 }));
    expect(retryRefusal(attempts)).toMatch(/at most 5/);
    expect(retryRefusal(attempts.slice(0, -1))).toBeUndefined();
    expect(attempts.map(failureAllowsRetry)).toEqual([true, true, true, true, false]);
    expect(toPaymentResource(attempts.at(-1)!)).toMatchObject({ retryable: false });
    expect(toPaymentResource(attempts[0]!)).toMatchObject({ retryable: true });
    expect(toPaymentResource(payment('AUTHORISED'))).not.toHaveProperty('retryable');
  });
});

describe('order of attempts', () => {
  it('follows the attempt number, not the clock (a retry written by a Lambda whose clock is behind)', () => {
    const first = declined('CARD_EXPIRED', { createdAt: '2026-11-23T10:00:05.000Z' });
    const second = payment('STARTED', { attempt: 2, createdAt: '2026-11-23T10:00:04.000Z' });
    expect(inAttemptOrder([second, first])).toEqual([first, second]);
    expect(orderState([second, first])).toBe('STARTED');
    expect(orderState([first])).toBe('FAILED');
  });
});

describe('nextPaymentRef', () => {
  it('is the same for the same failed payment (so concurrent retries collide), different for others, and UUID-shaped', () => {
    const failed = declined('CARD_EXPIRED');
    expect(nextPaymentRef(failed)).toBe(nextPaymentRef({ paymentRef: failed.paymentRef }));
    expect(nextPaymentRef(failed)).not.toBe(nextPaymentRef(declined('CARD_EXPIRED')));
    expect(nextPaymentRef(failed)).not.toBe(failed.paymentRef);
    expect(nextPaymentRef(failed)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
