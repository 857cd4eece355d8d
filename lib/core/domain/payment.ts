import type { DynamicDataType } from '../checkout/dynamic-data.js';
import type { Amount } from './amount.js';

export type PaymentState =
  | 'STARTED'
  | 'PROCESSING'
  | 'AUTHORISED'
  | 'CAPTURED'
  | 'AWAIT_3DS'
  | 'FAILED'
  | 'PARTIALLY_CAPTURED'
  | 'REVERSED'
  | 'PARTIALLY_REFUNDED'
  | 'REFUNDED';

/** The states after a successful authorization (SPEC §3): captures, reversal and refunds live here. */
export const AUTHORISED_STATES: ReadonlySet<PaymentState> = new Set([
  'AUTHORISED',
  'CAPTURED',
  'PARTIALLY_CAPTURED',
  'REVERSED',
  'PARTIALLY_REFUNDED',
  'REFUNDED',
]);
/** An order is paid once one of its payments was authorised, whatever happened to it since (capture, refund, reversal). */
export function isPaid(payments: readonly Pick<Payment, 'state'>[]): boolean {
  return payments.some((payment) => AUTHORISED_STATES.has(payment.state));
}

/** A payment that can no longer be paid: authorized (whatever happened since) or failed. */
export const FINAL_STATES: ReadonlySet<PaymentState> = new Set([...AUTHORISED_STATES, 'FAILED']);

export type PaymentMethodType = 'CLICK_TO_PAY' | 'DIRECT_WALLET';

/** Only what may be stored at rest (SPEC §3): never the PAN, token number or cryptogram. */
export interface MaskedPaymentMethod {
  type: PaymentMethodType;
  brand?: string;
  tokenLastFour?: string;
  panLastFour?: string;
  expiry?: string;
  paymentAccountReference?: string;
  /** The type of the dynamic data authorized with (e.g. CARD_APPLICATION_CRYPTOGRAM_LONG_FORM); never the value. */
  cryptogramType?: DynamicDataType;
}

/**
 * Which SRC checkout a Click to Pay payment came from (the verified JWS payload's ids and the
 * network whose key signed it). Not card data: correlation ids only. Mastercard requires a
 * confirmation of every outcome quoting them (lib/core/network/confirmation.ts).
 */
export interface SrcCheckoutReference {
  /** The trusted network key set that verified the checkout response (NETWORK_JWKS_URLS name). */
  network: string;
  srcCorrelationId: string;
  srciTransactionId?: string;
}

export interface Authorization {
  /** The issuer's authorization code; absent when the processor reported none. */
  code?: string;
  resultCode: string;
  at: string;
}

/**
 * What the page must do while the payment is AWAIT_3DS (SPEC §3 `threeDs`): run the 3DS Method
 * (`method`: form-POST `threeDSMethodData` to `url` in a hidden iframe, then 4.10
 * `{threeDSCompInd}`), or the challenge (form-POST `creq` to `acsUrl` in a frame of
 * `challengeWindowSize`, then 4.10 `{cres}`). `transactionId` is the 3DS Server's.
 */
export interface ThreeDsChallenge {
  transactionId: string;
  acsUrl?: string;
  creq?: string;
  /** The EMV window size the CReq asks the ACS for (the page sizes its frame to it). */
  challengeWindowSize?: string;
  method?: { url: string; threeDSMethodData: string };
}

/**
 * What a payment keeps of its cardholder authentication once it has an outcome (SPEC 4.17):
 * the ids, the protocol version, transStatus and why, the ECI. Never the authentication value.
 */
export interface ThreeDsEvidence {
  transactionId: string;
  dsTransactionId?: string;
  acsTransactionId?: string;
  protocolVersion?: string;
  transStatus: string;
  transStatusReason?: string;
  /** RReq challengeCancel (01: the cardholder cancelled; 05: the ACS never got the first CReq…). */
  challengeCancel?: string;
  eci?: string;
}

export interface PaymentFailure {
  /** A decline reason (lib/core/domain/decline.ts) or one of the service's own codes. */
  code: string;
  /** Our fixed text for `code`; never the processor's words. */
  reason: string;
  /** The processor's raw code, prefixed with its name (`adyen:12/51`, `checkout_com:20051`), for operators. */
  processorCode?: string;
}

export type OperationKind = 'CAPTURE' | 'REFUND' | 'REVERSAL';
export type OperationState = 'PENDING' | 'SUCCEEDED' | 'FAILED';

/** The states each operation may start from (SPEC §3); the reservation's write tests the same. */
export const OPERATION_STARTS_FROM: Readonly<Record<OperationKind, readonly PaymentState[]>> = {
  CAPTURE: ['AUTHORISED', 'PARTIALLY_CAPTURED'],
  REFUND: ['CAPTURED', 'PARTIALLY_CAPTURED', 'PARTIALLY_REFUNDED'],
  REVERSAL: ['AUTHORISED'],
};

/**
 * The failure of an operation the service decided not to perform (the acquirer never had it):
 * its amount is free again, and its own request coming back performs it after all (SPEC 4.13
 * "Operations after a fault").
 */
export const NOT_PERFORMED = 'NOT_PERFORMED';

export interface PaymentOperation {
  kind: OperationKind;
  amount: number;
  state: OperationState;
  /** When it was requested (ISO). */
  at: string;
  settledAt?: string;
  /**
   * While PENDING: epoch ms until which the request to the acquirer may still land (once sent),
   * or until which the request that reserved it may still send it (before).
   */
  inFlightUntil?: number;
  /**
   * This reservation of the operation (random). A new one when an operation the service did not
   * perform (NOT_PERFORMED) is reserved again by its own request coming back. Absent on
   * operations recorded before it existed: those count as sent.
   */
  attemptId?: string;
  /**
   * Who claimed the call to the acquirer (random per claim), written by a conditional write
   * before the call; absent while nobody has (the reservation landed, the acquirer never heard
   * of it). See modify-payment.ts.
   */
  sentBy?: string;
  /** When the call was last claimed (ISO). */
  sentAt?: string;
  failure?: PaymentFailure;
  /**
   * The processor's own reference for the operation, once it acknowledged it (Adyen's
   * modification pspReference, Checkout.com's action id): it certainly has the operation, whose
   * outcome comes later (a notification, or recovery).
   */
  processorReference?: string;
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
  /** The 3DS outcome's evidence (after a production or sandbox authentication), never the authentication value. */
  authentication?: ThreeDsEvidence;
  failure?: PaymentFailure;
  payerIp?: string;
  /** Click to Pay (4.3) only: the checkout's SRC ids, for the network's confirmations. */
  srcCheckout?: SrcCheckoutReference;
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
  /**
   * The processor's reference of the authorization (Adyen pspReference, Checkout.com pay_…):
   * captures, reversals and refunds act on it. Set by the final write, or while PROCESSING once
   * the processor acknowledged a pending authorization (its outcome comes later).
   */
  processorReference?: string;
  /** The lease whose final write settled the payment (recognises a retried final write). */
  settledBy?: string;
  /** The credential key that settled it: the same request again gets the outcome, not a 409. */
  settledCredential?: string;
  /** After authorization (SPEC §3, 4.11–4.13): the running totals, in minor units of `amount`. */
  capturedAmount?: number;
  refundedAmount?: number;
  /**
   * What is left to capture / to refund, *reservations deducted*: the conditional writes that
   * start a capture or refund test and decrement these, so concurrent operations can never
   * add up to more than the authorization (or the captured amount).
   */
  capturable?: number;
  refundable?: number;
  /** Captures, refunds and the reversal, keyed by their reference (the acquirer's idempotency key). */
  operations?: Record<string, PaymentOperation>;
  /** Which payment of its order this is (lib/core/domain/payment-retry.ts); absent on the first. */
  attempt?: number;
  createdAt: string;
  updatedAt: string;
}

/**
 * The state the totals mean (SPEC §3). A refund ends capturing: once anything is refunded the
 * payment is (PARTIALLY_)REFUNDED, and refunds add up to at most what was captured.
 */
export function stateAfterOperations(payment: Pick<Payment, 'amount' | 'capturedAmount' | 'refundedAmount'>, reversed: boolean): PaymentState {
  const captured = payment.capturedAmount ?? 0;
  const refunded = payment.refundedAmount ?? 0;
  if (reversed) return 'REVERSED';
  if (refunded > 0) return refunded >= captured ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
  if (captured > 0) return captured >= payment.amount.value ? 'CAPTURED' : 'PARTIALLY_CAPTURED';
  return 'AUTHORISED';
}
