import type { Amount } from './order.js';

export type PaymentState = 'STARTED' | 'PROCESSING' | 'AUTHORISED' | 'CAPTURED' | 'AWAIT_3DS' | 'FAILED';
export const FINAL_STATES: ReadonlySet<PaymentState> = new Set(['AUTHORISED', 'CAPTURED', 'FAILED']);

export type PaymentMethodType = 'CLICK_TO_PAY' | 'DIRECT_WALLET';

/** Only what may be stored at rest (SPEC §3): never the PAN, token number or cryptogram. */
export interface MaskedPaymentMethod {
  type: PaymentMethodType;
  brand?: string;
  tokenLastFour?: string;
  panLastFour?: string;
  expiry?: string;
  paymentAccountReference?: string;
}

export interface Authorization {
  code: string;
  resultCode: string;
  at: string;
}

export interface ThreeDsChallenge {
  acsUrl: string;
  creq: string;
  transactionId: string;
}

export interface PaymentFailure {
  code: string;
  reason: string;
}

export interface Payment {
  paymentRef: string;
  orderRef: string;
  outletId: string;
  state: PaymentState;
  amount: Amount;
  paymentMethod?: MaskedPaymentMethod;
  eci?: string;
  authorization?: Authorization;
  threeDs?: ThreeDsChallenge;
  failure?: PaymentFailure;
  payerIp?: string;
  /** Optimistic-concurrency counter; every transition increments it. */
  version: number;
  /** While PROCESSING: who holds the lease; only the holder may finish or release it. */
  leaseId?: string;
  /** While PROCESSING: epoch ms after which another attempt may take the lease over. */
  leaseUntil?: number;
  /** The state the lease was taken from, so an expired lease can be resumed correctly. */
  leaseFrom?: 'STARTED' | 'AWAIT_3DS';
  /** While PROCESSING: a hash naming the credential; only the same one may take an expired lease over. */
  leaseCredential?: string;
  /** While PROCESSING: the attempt's masked payment method, recorded if another attempt settles it. */
  leaseMasked?: MaskedPaymentMethod;
  /** While PROCESSING: epoch ms until which an earlier authorization may still reach the acquirer. */
  parkedUntil?: number;
  /** The lease whose final write settled the payment (recognises a retried final write). */
  settledBy?: string;
  /** The credential key that settled it: the same request again gets the outcome, not a 409. */
  settledCredential?: string;
  createdAt: string;
  updatedAt: string;
}

/** The public payment resource of SPEC §3. The lease is internal: PROCESSING shows as its origin. */
export function toPaymentResource(payment: Payment): Record<string, unknown> {
  const state = payment.state === 'PROCESSING' ? (payment.leaseFrom ?? 'STARTED') : payment.state;
  return {
    paymentRef: payment.paymentRef,
    orderRef: payment.orderRef,
    outletId: payment.outletId,
    state,
    amount: payment.amount,
    ...(payment.paymentMethod ? { paymentMethod: payment.paymentMethod } : {}),
    ...(payment.eci ? { eci: payment.eci } : {}),
    ...(payment.authorization && (state === 'AUTHORISED' || state === 'CAPTURED') ? { authorization: payment.authorization } : {}),
    ...(payment.threeDs && state === 'AWAIT_3DS' ? { threeDs: payment.threeDs } : {}),
    ...(payment.failure && state === 'FAILED' ? { failure: payment.failure } : {}),
    createdAt: payment.createdAt,
    updatedAt: payment.updatedAt,
  };
}
