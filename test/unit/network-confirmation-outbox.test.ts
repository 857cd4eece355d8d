import { describe, expect, it } from 'vitest';
import type { Payment, PaymentOperation } from '../../lib/core/domain/payment.js';
import { operationConfirmations } from '../../lib/core/network/confirmation.js';

/** SPEC 4.3: the network hears of what happened — a capture, refund or reversal that did not happen confirms nothing. */
const order = { merchantRef: 'm-1' };

function captured(operation: PaymentOperation): Payment {
  return {
    paymentRef: 'p-1',
    orderRef: 'o-1',
    outletId: 'out-1',
    state: 'AUTHORISED',
    amount: { currencyCode: 'AED', value: 1000 },
    paymentMethod: { type: 'CLICK_TO_PAY', brand: 'MASTERCARD', tokenLastFour: '1234' },
    authorization: { code: 'A1B2C3', resultCode: '00', at: '2026-11-23T20:00:00.000Z' },
    srcCheckout: { network: 'mastercard', srcCorrelationId: 'corr-1' },
    operations: { 'cap-1': operation },
    version: 3,
    createdAt: '2026-11-23T20:00:00.000Z',
    updatedAt: '2026-11-23T20:01:00.000Z',
  } as Payment;
}

describe('operationConfirmations', () => {
  it('confirms a SUCCEEDED capture to the network', () => {
    const payment = captured({ kind: 'CAPTURE', amount: 1000, state: 'SUCCEEDED', at: '2026-11-23T20:01:00.000Z', settledAt: '2026-11-23T20:01:01.000Z' });
    const entries = operationConfirmations(order, payment, 'cap-1', Date.now());
    expect(entries).toHaveLength(1);
    expect(JSON.parse(entries[0]!.body)).toMatchObject({ outcome: 'CAPTURED', amount: { currencyCode: 'AED', value: 1000 } });
  });

  it.each(['FAILED', 'PENDING'] as const)('confirms nothing for a %s operation (it did not happen, or not yet)', (state) => {
    const payment = captured({
      kind: 'CAPTURE',
      amount: 1000,
      state,
      at: '2026-11-23T20:01:00.000Z',
      ...(state === 'FAILED' ? { failure: { code: 'DECLINED', reason: 'no' } } : {}),
    });
    expect(operationConfirmations(order, payment, 'cap-1', Date.now())).toEqual([]);
  });

  it('confirms nothing for an operation reference the payment does not have', () => {
    const payment = captured({ kind: 'CAPTURE', amount: 1000, state: 'SUCCEEDED', at: '2026-11-23T20:01:00.000Z' });
    expect(operationConfirmations(order, payment, 'cap-unknown', Date.now())).toEqual([]);
  });
});
