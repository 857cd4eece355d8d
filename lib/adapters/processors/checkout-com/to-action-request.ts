import type { ModificationRequest } from '../../../core/ports/authorizer.js';
import type { CkoAction, CkoActionRequest } from './types.js';

/** Our capture / reversal / refund → POST /payments/{id}/captures | voids | refunds, reference = our operation reference. */
export const CKO_ACTION: Readonly<Record<ModificationRequest['kind'], CkoAction>> = { CAPTURE: 'captures', REVERSAL: 'voids', REFUND: 'refunds' };

/** The action type GET /payments/{id}/actions lists each as. */
export const CKO_ACTION_TYPE: Readonly<Record<ModificationRequest['kind'], string>> = { CAPTURE: 'Capture', REVERSAL: 'Void', REFUND: 'Refund' };

export function toActionRequest(request: ModificationRequest): CkoActionRequest {
  if (request.kind === 'REVERSAL') return { reference: request.idempotencyKey };
  return { reference: request.idempotencyKey, amount: request.amount.value };
}
