import { decline } from '../decline.js';
import type { AuthorizationOutcome } from '../../../core/ports/authorizer.js';
import { ProcessorMaybeSentError } from '../transport/failures.js';
import { adyenDecline } from './refusal-reasons.js';
import type { AdyenModificationResponse, AdyenPaymentResponse } from './types.js';

/**
 * A /payments answer → our outcome. Authorised is approved; Refused, Error and Cancelled are
 * declines (Error: Adyen did not authorize; its text is dropped); Received and Pending wait for
 * the AUTHORISATION notification; an answer asking for Adyen's own 3DS or a redirect (which the
 * service never runs: it sent mpiData) is a decline that asks for authentication. The answer
 * must name our reference: one that names another is the first answer of another request under
 * the same key — never taken as ours (Adyen returns the first answer for a key whatever the
 * body: a second request under it would otherwise be mistaken for the first).
 */
export function outcomeOfPayment(
  answer: AdyenPaymentResponse,
  request: { reference: string; amount: { currency: string; value: number } },
): AuthorizationOutcome {
  const other =
    (answer.merchantReference !== undefined && answer.merchantReference !== request.reference) ||
    (answer.amount !== undefined && (answer.amount.value !== request.amount.value || answer.amount.currency !== request.amount.currency));
  if (other) throw new ProcessorMaybeSentError('adyen', 'idempotency-conflict');
  const pspReference = answer.pspReference;
  switch (answer.resultCode) {
    case 'Authorised':
      if (!pspReference) throw new ProcessorMaybeSentError('adyen', 'unparseable-answer');
      return {
        kind: 'approved',
        processorReference: pspReference,
        resultCode: 'Authorised',
        ...(answer.additionalData?.authCode ? { authorizationCode: answer.additionalData.authCode } : {}),
      };
    case 'Refused':
    case 'Error':
    case 'Cancelled':
      return {
        kind: 'declined',
        ...(pspReference ? { processorReference: pspReference } : {}),
        decline: adyenDecline(answer.refusalReasonCode, answer.additionalData?.refusalReasonRaw),
      };
    case 'Received':
    case 'Pending':
      if (!pspReference) throw new ProcessorMaybeSentError('adyen', 'unparseable-answer');
      return { kind: 'pending', processorReference: pspReference };
    case 'ChallengeShopper':
    case 'IdentifyShopper':
    case 'RedirectShopper':
      return {
        kind: 'declined',
        ...(pspReference ? { processorReference: pspReference } : {}),
        decline: decline('AUTHENTICATION_REQUIRED', `adyen:${answer.resultCode}`),
      };
    default:
      // PartiallyAuthorised (never asked for), PresentToShopper, Success…: not an answer to this request.
      throw new ProcessorMaybeSentError('adyen', 'unparseable-answer');
  }
}

/** A modification answer (201 received): the modification is pending until its notification. */
export function outcomeOfModification(
  answer: AdyenModificationResponse,
  request: { reference: string; paymentPspReference: string; amount?: { value: number } },
): AuthorizationOutcome {
  const otherAmount = request.amount !== undefined && answer.amount !== undefined && answer.amount.value !== request.amount.value;
  if ((answer.reference !== undefined && answer.reference !== request.reference) || answer.paymentPspReference !== request.paymentPspReference || otherAmount) {
    throw new ProcessorMaybeSentError('adyen', 'idempotency-conflict');
  }
  return { kind: 'pending', processorReference: answer.pspReference };
}
