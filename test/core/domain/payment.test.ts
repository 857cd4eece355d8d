import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPaid, stateAfterOperations } from '../../../lib/core/domain/payment.js';

/** The state the running totals mean (SPEC §3, lib/core/domain/payment.ts). */
const amount = { currencyCode: 'AED', value: 10_000 };

describe('the state after captures, refunds and a reversal', () => {
  it('follows the totals: nothing captured AUTHORISED, part PARTIALLY_CAPTURED, all CAPTURED; a reversal REVERSED', () => {
    expect(stateAfterOperations({ amount, capturedAmount: 0, refundedAmount: 0 }, false)).toBe('AUTHORISED');
    expect(stateAfterOperations({ amount, capturedAmount: 1, refundedAmount: 0 }, false)).toBe('PARTIALLY_CAPTURED');
    expect(stateAfterOperations({ amount, capturedAmount: 10_000, refundedAmount: 0 }, false)).toBe('CAPTURED');
    expect(stateAfterOperations({ amount, capturedAmount: 0, refundedAmount: 0 }, true)).toBe('REVERSED');
  });

  it('a refund ends capturing: once anything is refunded the payment is PARTIALLY_REFUNDED, or REFUNDED once all that was captured is', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 1, max: 10_000 }), (captured, refunded) => {
        fc.pre(refunded <= captured);
        const state = stateAfterOperations({ amount, capturedAmount: captured, refundedAmount: refunded }, false);
        expect(state).toBe(refunded === captured ? 'REFUNDED' : 'PARTIALLY_REFUNDED');
      }),
    );
  });

  it('an order is paid once any of its payments was authorised, whatever happened to it since', () => {
    expect(isPaid([{ state: 'FAILED' }, { state: 'REFUNDED' }])).toBe(true);
    expect(isPaid([{ state: 'FAILED' }, { state: 'AWAIT_3DS' }, { state: 'PROCESSING' }])).toBe(false);
  });
});
