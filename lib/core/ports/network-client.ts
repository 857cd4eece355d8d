import type { Amount } from '../domain/order.js';

/** What a Mastercard Click to Pay checkout ended with (SPEC 4.3's confirmation paragraph). */
export type ConfirmationOutcome = 'AUTHORISED' | 'DECLINED' | 'CAPTURED' | 'REVERSED' | 'REFUNDED';

/**
 * One outcome to confirm to the card network, as the outbox keeps it. Network-neutral: the
 * adapter maps it to the network's wire format (mastercard/confirmation-body.ts). Every field is
 * fixed when the outcome is written, so a retry sends the same confirmation.
 */
export interface NetworkConfirmation {
  /** Stable per outcome (confirmation.ts `confirmationId`): the network-side idempotency key. */
  id: string;
  /** The network whose SRC signed the checkout (SrcCheckoutReference.network): picks the client. */
  network: string;
  outcome: ConfirmationOutcome;
  srcCorrelationId: string;
  srciTransactionId?: string;
  paymentRef: string;
  /** The amount the outcome concerns: the authorization, or one capture / refund. */
  amount: Amount;
  /** When the outcome happened (ISO 8601), not when the confirmation is sent. */
  occurredAt: string;
  /** The acquirer's approval code, when approved. */
  authorizationCode?: string;
  /** A decline's code (e.g. INSUFFICIENT_FUNDS, THREE_DS_FAILED). */
  reason?: string;
}

/** One attempt's result. Adapters never throw: a failure is `ok: false` with what went wrong. */
export interface ConfirmationResult {
  ok: boolean;
  status?: number;
  error?: string;
  durationMs: number;
}

/** The card network's confirmations API (the port; adapters: production HTTP, sandbox). */
export interface NetworkClient {
  confirm(confirmation: NetworkConfirmation): Promise<ConfirmationResult>;
}
