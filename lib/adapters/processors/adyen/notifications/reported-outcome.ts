import { decline } from '../../decline.js';
import type { AuthorizationOutcome } from '../../../../core/ports/authorizer.js';
import { adyenDecline } from '../refusal-reasons.js';
import type { NotificationItem } from './parse.js';

/** The event that settles each of our operations (merchantReference = our reference). */
const SETTLING_EVENT = { AUTHORIZE: 'AUTHORISATION', CAPTURE: 'CAPTURE', REVERSAL: 'CANCELLATION', REFUND: 'REFUND' } as const;

/**
 * What Adyen's verified notifications about one reference say of its outcome, or undefined
 * when none has settled it yet. AUTHORISATION success=true is an approval (its pspReference is
 * the payment's); false a decline, mapped from the issuer's code when Adyen sent it
 * (additionalData.refusalReasonRaw) and PROCESSOR_REFUSED otherwise — never its `reason` text.
 * CAPTURE / CANCELLATION / REFUND settle a modification the same way.
 */
export function reportedOutcome(
  items: readonly NotificationItem[],
  operation: keyof typeof SETTLING_EVENT,
): Exclude<AuthorizationOutcome, { kind: 'pending' }> | undefined {
  const eventCode = SETTLING_EVENT[operation];
  const item = items.filter((candidate) => candidate.eventCode === eventCode).at(-1);
  if (!item) return undefined;
  if (item.success === 'true') return { kind: 'approved', processorReference: item.pspReference, resultCode: eventCode };
  const raw = item.additionalData?.refusalReasonRaw;
  const code = item.additionalData?.refusalReasonCode;
  if (operation === 'AUTHORIZE' && (typeof raw === 'string' || typeof code === 'string')) {
    return {
      kind: 'declined',
      processorReference: item.pspReference,
      decline: adyenDecline(typeof code === 'string' ? code : undefined, typeof raw === 'string' ? raw : undefined),
    };
  }
  return { kind: 'declined', processorReference: item.pspReference, decline: decline('PROCESSOR_REFUSED', `adyen:${eventCode}:false`) };
}
