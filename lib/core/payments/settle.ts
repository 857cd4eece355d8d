import { StoreConflictError } from '../ports/store-conflict.js';
import type { Order } from '../domain/order.js';
import type { Payment } from '../domain/payment.js';

import { lookupWithTimeout, type AuthorizationOutcome, type Authorizer } from '../ports/authorizer.js';
import type { PaymentDeps, RequestFacts } from './deps.js';
import { writeFinal } from './final-write.js';
import type { PaymentContext } from './payment-context.js';
import type { FinalPatch } from '../ports/payment-store.js';

/** The final state an acquirer's answer means for this order's action. */
export function outcomePatch(outcome: AuthorizationOutcome, order: Pick<Order, 'action' | 'amount'>, paymentRef: string, now: number): FinalPatch {
  if (!outcome.approved) return { state: 'FAILED', failure: { code: outcome.declineCode, reason: outcome.reason } };
  const at = new Date(now).toISOString();
  const authorization = { code: outcome.code, resultCode: outcome.resultCode, at };
  const value = order.amount.value;
  if (order.action === 'AUTH') {
    return { state: 'AUTHORISED', authorization, capturedAmount: 0, refundedAmount: 0, capturable: value, refundable: 0, operations: {} };
  }
  // A sale is captured by its authorization: one capture, under the payment's own reference.
  const sale = { kind: 'CAPTURE', amount: value, state: 'SUCCEEDED', at, settledAt: at } as const;
  return { state: 'CAPTURED', authorization, capturedAmount: value, refundedAmount: 0, capturable: 0, refundable: value, operations: { [paymentRef]: sale } };
}

/**
 * A lease another credential left behind for good (its holder died, nobody came back with
 * that credential). The acquirer is asked what happened under the payment's key: an outcome
 * is recorded with the masked card the lease was taken for; none frees the payment for the
 * next attempt. Either way nothing is authorized twice, and no payment stays stuck.
 */
export async function settleAbandoned(
  deps: PaymentDeps,
  ctx: PaymentContext,
  acquirer: Authorizer,
  current: Payment,
  facts: RequestFacts,
): Promise<Payment | 'released'> {
  const known = await lookupWithTimeout(acquirer, current.paymentRef, deps.settings.authorizerTimeoutMs);
  if (!known) {
    await deps.payments.release(current, current.leaseId!, current.leaseFrom!, deps.now()).catch((error: unknown) => {
      if (!(error instanceof StoreConflictError)) throw error; // someone else moved first: fine
    });
    facts.logger.info('abandoned lease released: the acquirer performed nothing', { paymentRef: current.paymentRef });
    return 'released';
  }
  const patch = { ...outcomePatch(known, ctx.order, current.paymentRef, deps.now()), ...(current.leaseMasked ? { paymentMethod: current.leaseMasked } : {}) };
  facts.logger.info('abandoned lease settled from the acquirer’s record', { paymentRef: current.paymentRef, approved: known.approved });
  return writeFinal(deps, ctx.order, current, current.leaseId!, patch, current.leaseCredential);
}
