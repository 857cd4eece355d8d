import type { ModificationRequest } from '../../../core/ports/authorizer.js';
import type { AdyenModification, AdyenModificationRequest } from './types.js';

/**
 * Our capture / reversal / refund → /payments/{pspReference}/captures | cancels | refunds.
 * A reversal (SPEC 4.12: void while nothing is captured) is a cancel; /reversals (cancel-or-
 * refund, Adyen decides) is not used, since the service always knows which one it means.
 */
export const ADYEN_MODIFICATION: Readonly<Record<ModificationRequest['kind'], AdyenModification>> = {
  CAPTURE: 'captures',
  REVERSAL: 'cancels',
  REFUND: 'refunds',
};

export function toModificationRequest(request: ModificationRequest, merchantAccount: string): AdyenModificationRequest {
  const base = { merchantAccount, reference: request.idempotencyKey };
  if (request.kind === 'REVERSAL') return base;
  return { ...base, amount: { currency: request.amount.currencyCode, value: request.amount.value } };
}
