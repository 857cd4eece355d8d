import type { AuthorizationOutcome } from '../../../core/ports/authorizer.js';
import { ProcessorMaybeSentError } from '../transport/failures.js';
import { checkoutComDecline } from './response-codes.js';
import type { CkoPaymentAction, CkoPaymentAnswer, CkoPaymentDetails } from './types.js';

const APPROVED_STATUSES = new Set(['Authorized', 'Captured', 'Paid', 'Card Verified', 'Partially Captured', 'Partially Refunded', 'Refunded', 'Voided']);

/**
 * POST /payments answered 201 (processed: approved or declined) or 202 (Pending: not approved,
 * its result comes later — SPEC 4.16). An answer that names another reference is another
 * request's, never taken as ours.
 */
export function outcomeOfPayment(status: 201 | 202, answer: CkoPaymentAnswer, reference: string, amount: number): AuthorizationOutcome {
  if ((answer.reference !== undefined && answer.reference !== reference) || (answer.amount !== undefined && answer.amount !== amount)) {
    throw new ProcessorMaybeSentError('checkout_com', 'idempotency-conflict');
  }
  if (status === 202 || answer.status === 'Pending') return { kind: 'pending', processorReference: answer.id };
  if (answer.approved === true)
    return {
      kind: 'approved',
      processorReference: answer.id,
      resultCode: answer.response_code ?? '10000',
      ...(answer.auth_code ? { authorizationCode: answer.auth_code } : {}),
    };
  return { kind: 'declined', processorReference: answer.id, decline: checkoutComDecline(answer.response_code) };
}

/** A payment found by reference: approved at some point, declined, or still pending. */
export function outcomeOfDetails(details: CkoPaymentDetails, authorization: CkoPaymentAction | undefined): AuthorizationOutcome {
  if (details.status === 'Pending') return { kind: 'pending', processorReference: details.id };
  if (details.approved && APPROVED_STATUSES.has(details.status))
    return { kind: 'approved', processorReference: details.id, resultCode: authorization?.response_code ?? '10000' };
  return { kind: 'declined', processorReference: details.id, decline: checkoutComDecline(authorization?.response_code) };
}

/** An action found in GET /payments/{id}/actions: approved or declined (an action is listed once processed). */
export function outcomeOfAction(action: CkoPaymentAction): AuthorizationOutcome {
  if (action.approved === true) return { kind: 'approved', processorReference: action.id, resultCode: action.response_code };
  return { kind: 'declined', processorReference: action.id, decline: checkoutComDecline(action.response_code) };
}
