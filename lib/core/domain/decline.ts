import type { PaymentFailure } from './payment.js';

/**
 * The SPEC's decline reasons (a declined payment's `failure.code`): the processor-independent
 * vocabulary every authorizer maps its own codes to (SPEC 4.16). `soft`: another attempt (later,
 * or after the shopper acts) may succeed; `hard`: the same credential will not succeed. The
 * first three are the sandbox's (SPEC §5); the others name what Adyen's refusal reasons and
 * Checkout.com's response codes distinguish (docs/design/processors.md "Decline mapping").
 * `text` is what clients see in `failure.reason`: fixed, ours — never a processor's own words.
 */
export const DECLINE_REASONS = {
  INSUFFICIENT_FUNDS: { retry: 'soft', text: 'Insufficient funds' },
  DO_NOT_HONOUR: { retry: 'soft', text: 'Do not honour' },
  CARD_EXPIRED: { retry: 'hard', text: 'Card expired' },
  LIMIT_EXCEEDED: { retry: 'soft', text: 'Amount or frequency limit exceeded' },
  ISSUER_UNAVAILABLE: { retry: 'soft', text: 'Issuer unavailable' },
  AUTHENTICATION_REQUIRED: { retry: 'soft', text: 'Cardholder authentication required' },
  THREE_DS_FAILED: { retry: 'soft', text: '3-D Secure authentication failed' },
  INVALID_CRYPTOGRAM: { retry: 'soft', text: 'Token cryptogram rejected' },
  INVALID_CARD: { retry: 'hard', text: 'Invalid card or token' },
  RESTRICTED_CARD: { retry: 'hard', text: 'Card restricted or blocked' },
  LOST_OR_STOLEN: { retry: 'hard', text: 'Card reported lost or stolen' },
  SUSPECTED_FRAUD: { retry: 'hard', text: 'Suspected fraud' },
  TRANSACTION_NOT_PERMITTED: { retry: 'hard', text: 'Transaction not permitted' },
  REFERRAL: { retry: 'hard', text: 'Refer to card issuer' },
  PROCESSOR_REFUSED: { retry: 'hard', text: 'Refused by the processor' },
  DECLINED: { retry: 'soft', text: 'Declined' },
  /** A capture, reversal or refund of an authorization the acquirer does not hold as approved. */
  NO_AUTHORIZATION: { retry: 'hard', text: 'No approved authorization to act on' },
} as const satisfies Record<string, { retry: 'soft' | 'hard'; text: string }>;

export type DeclineReason = keyof typeof DECLINE_REASONS;

/**
 * A decline as the service keeps it: our reason (shown to clients with its fixed text), whether a
 * retry may help, and the processor's raw code (kept on the payment as `failure.processorCode`
 * for operators, e.g. `adyen:12` or `checkout_com:20051`). The processor's own text is never part
 * of it: it may carry issuer detail that SPEC §2 keeps from clients.
 */
export interface Decline {
  reason: DeclineReason;
  retry: 'soft' | 'hard';
  processorCode: string;
}

export function decline(reason: DeclineReason, processorCode: string): Decline {
  return { reason, retry: DECLINE_REASONS[reason].retry, processorCode };
}

/** What a decline shows on the payment: our reason and its fixed text, and the processor's raw code for operators. */
export function failureOf(decline: Decline): PaymentFailure {
  return { code: decline.reason, reason: DECLINE_REASONS[decline.reason].text, processorCode: decline.processorCode };
}

export const isDeclineReason = (code: string): code is DeclineReason => Object.hasOwn(DECLINE_REASONS, code);
