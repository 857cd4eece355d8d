import type * as z from 'zod';
import { AUTHORISED_STATES, type OperationKind, type Payment } from '../../core/domain/payment.js';
import { failureAllowsRetry } from '../../core/domain/payment-retry.js';
import type { paymentResource } from '../resource-schemas.js';

/** The public payment resource (SPEC §3) as its schema types it (lib/http/resource-schemas.ts). */
export type PaymentResource = z.output<typeof paymentResource>;

/** The public payment resource of SPEC §3. The lease is internal: PROCESSING shows as its origin. */
export function toPaymentResource(payment: Payment): PaymentResource {
  const state = payment.state === 'PROCESSING' ? (payment.leaseFrom ?? 'STARTED') : payment.state;
  return {
    paymentRef: payment.paymentRef,
    orderRef: payment.orderRef,
    outletId: payment.outletId,
    state,
    amount: payment.amount,
    ...(payment.paymentMethod ? { paymentMethod: payment.paymentMethod } : {}),
    ...(payment.eci ? { eci: payment.eci } : {}),
    ...(payment.authorization && AUTHORISED_STATES.has(state) ? { authorization: payment.authorization } : {}),
    ...(payment.threeDs && state === 'AWAIT_3DS' ? { threeDs: payment.threeDs as NonNullable<PaymentResource['threeDs']> } : {}),
    ...(payment.authentication ? { authentication: payment.authentication } : {}),
    ...(payment.failure && state === 'FAILED' ? { failure: payment.failure } : {}),
    // Whether the order can get a new payment after this one (POST …/orders/{orderRef}/payments).
    ...(state === 'FAILED' ? { retryable: failureAllowsRetry(payment) } : {}),
    ...(AUTHORISED_STATES.has(state) ? lifecycleView(payment) : {}),
    createdAt: payment.createdAt,
    updatedAt: payment.updatedAt,
  };
}

/** captures[], refunds[] and the running totals of SPEC §3, oldest operation first. */
function lifecycleView(payment: Payment) {
  const money = (value: number) => ({ currencyCode: payment.amount.currencyCode, value });
  const entries = Object.entries(payment.operations ?? {}).sort(([, a], [, b]) => a.at.localeCompare(b.at));
  const of = (kind: OperationKind) =>
    entries
      .filter(([, op]) => op.kind === kind)
      .map(([ref, op]) => ({ ref, amount: money(op.amount), state: op.state, at: op.at, ...(op.failure ? { failure: op.failure } : {}) }));
  const reversal = entries.find(([, op]) => op.kind === 'REVERSAL');
  return {
    captures: of('CAPTURE').map(({ ref, ...rest }) => ({ captureRef: ref, ...rest })),
    refunds: of('REFUND').map(({ ref, ...rest }) => ({ refundRef: ref, ...rest })),
    ...(reversal ? { reversal: { reversalRef: reversal[0], state: reversal[1].state, at: reversal[1].at } } : {}),
    capturedAmount: money(payment.capturedAmount ?? 0),
    refundedAmount: money(payment.refundedAmount ?? 0),
  };
}
