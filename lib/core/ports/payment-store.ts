import type { LeaseClause, LeaseOrigin } from '../domain/lease-rule.js';
import type { MaskedPaymentMethod, Payment, PaymentState, SrcCheckoutReference } from '../domain/payment.js';
import type { OutboxEntry } from './outbox.js';

export type { LeaseOrigin };

export interface LeaseRequest {
  from: LeaseOrigin;
  leaseId: string;
  /** Epoch ms. */
  leaseUntil: number;
  now: number;
  /** Who may take an expired lease over: the same checkout response, card or 3DS transaction. */
  credential: string;
  /**
   * What the stored payment must be for the lease to be taken: `LEASE_RULE.fresh(from)` or
   * `LEASE_RULE.takeover(…)` (lib/core/domain/lease-rule.ts). One condition each, not both
   * OR-ed: the caller knows from the payment it read which one applies (lib/core/payments/lease.ts
   * asks for the other if that changed).
   */
  requires: readonly LeaseClause[];
  /** What the attempt pays with, masked: recorded if another attempt must settle this lease. */
  masked?: MaskedPaymentMethod;
  /** The checkout's SRC ids: kept from the lease on, so whoever settles it can confirm to the network. */
  srcCheckout?: SrcCheckoutReference;
  payerIp?: string;
}

export interface LeaseTaken {
  /** The lease replaced an expired or parked one: its holder may have reached the acquirer. */
  takeover: boolean;
  /** Epoch ms: an earlier authorization may still be in flight to the acquirer until then. */
  parkedUntil?: number;
  /**
   * The payment as this lease left it, when known (the old record with the lease's changes):
   * only the holder changes a leased payment, so the final write knows what it leaves without
   * asking the store to send the whole record back (`finish`).
   */
  leased?: Payment;
}

export type FinalPatch = Partial<
  Pick<
    Payment,
    | 'paymentMethod'
    | 'srcCheckout'
    | 'eci'
    | 'authorization'
    | 'threeDs'
    | 'authentication'
    | 'failure'
    | 'capturedAmount'
    | 'refundedAmount'
    | 'capturable'
    | 'refundable'
    | 'operations'
    | 'processorReference'
  >
> & {
  state: Exclude<PaymentState, 'PROCESSING' | 'STARTED'>;
};

/**
 * Where a payment's 3DS attempt stands (lib/core/payments/three-ds/): `method` — prepared, the
 * page runs the 3DS Method; `areq-sent` — the AReq was (maybe) sent: never send it again, recover
 * by the transaction id; `challenge` — the ACS challenges, the RReq decides; `spent` — over
 * without a usable result (lost, refused, consumed): the next try starts a new attempt.
 */
export type ThreeDsPhase = 'method' | 'areq-sent' | 'challenge' | 'spent';

/**
 * What a payment being authenticated keeps (TTL): the JWE (encrypted to our KMS key, never
 * plaintext) and its current attempt — ids, version, phase. Never the account number or the
 * authentication value.
 */
export interface PendingThreeDs {
  jwe: string;
  source: 'CLICK_TO_PAY' | 'DIRECT_WALLET';
  /** The attempt's threeDSServerTransID; a cres must name it. */
  transactionId: string;
  /** The ACS's acsTransID once it challenged: a cres must name it too. */
  acsTransactionId?: string;
  messageVersion?: '2.2.0' | '2.3.1';
  /** The brand whose directory server runs the attempt (VISA, MASTERCARD…). */
  brand?: string;
  phase?: ThreeDsPhase;
  /** How many attempts (transaction ids) this payment started: bounded (settings.threeDs.maxAttempts). */
  attempts?: number;
  /** The credential key of the 4.3/4.4 request that started it: another credential's request starts afresh. */
  owner?: string | undefined;
  /** The transaction id whose AReq was claimed (conditional write): nobody sends it twice. */
  areqSentFor?: string;
  /** Which 3DS server runs it (the merchant's environment then). */
  environment: string;
  /** Epoch seconds; the record is absent on read after it. */
  expiresAt: number;
}

type PaymentKey = Pick<Payment, 'orderRef' | 'paymentRef'>;

/**
 * Payment state transitions (SPEC §3), each a single conditional write:
 * STARTED|AWAIT_3DS → PROCESSING (a lease with an expiry) → final, or back on release.
 * Every transition that can lose throws StoreConflictError with the payment as it was.
 */
export interface PaymentStore {
  /** Strongly consistent. */
  get(orderRef: string, paymentRef: string): Promise<Payment | undefined>;
  /** Takes the lease when the payment meets `lease.requires`; answers what the lease replaced. */
  acquireLease(payment: PaymentKey, lease: LeaseRequest): Promise<LeaseTaken>;
  /**
   * The final write; only the lease holder can make it. `settledBy` records which lease wrote
   * it, so a retry of a write whose answer was lost recognises its own result. `settled` is
   * what the write leaves when the caller knows it (then nothing is sent back).
   */
  finish(
    payment: PaymentKey,
    leaseId: string,
    patch: FinalPatch,
    credential: string | undefined,
    events: readonly OutboxEntry[],
    now: number,
    settled?: Payment,
  ): Promise<Payment>;
  /** Gives the lease back: only for failures that cannot have reached the acquirer. */
  release(payment: PaymentKey, leaseId: string, to: LeaseOrigin, now: number): Promise<void>;
  /**
   * Parks the lease after the acquirer may have been reached: expires now, no new authorization
   * before `parkedUntil`. With `processorReference`: the processor acknowledged the authorization
   * as pending (it certainly has it), recorded so that recovery knows, with `events` (its
   * processor recovery) appended to the outbox in the same write.
   */
  park(payment: PaymentKey, leaseId: string, now: number, parkedUntil: number, processorReference?: string, events?: readonly OutboxEntry[]): Promise<void>;
  /**
   * Writes the whole record. With `unlessAReqSentFor`, only if no AReq was claimed for that
   * transaction id yet (StoreConflictError otherwise): the claim made before an AReq is sent.
   */
  putPendingThreeDs(orderRef: string, paymentRef: string, pending: PendingThreeDs, options?: { unlessAReqSentFor?: string }): Promise<void>;
  /** Undefined when absent or expired at `now`. */
  getPendingThreeDs(orderRef: string, paymentRef: string, now: number): Promise<PendingThreeDs | undefined>;
  deletePendingThreeDs(orderRef: string, paymentRef: string): Promise<void>;
}
