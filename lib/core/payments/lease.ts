import { randomUUID } from 'node:crypto';
import { LEASE_RULE, satisfies, type LeaseOrigin } from '../domain/lease-rule.js';
import type { MaskedPaymentMethod, Payment, SrcCheckoutReference } from '../domain/payment.js';
import { PaymentStateConflictError } from '../errors.js';
import type { LeaseTaken } from '../ports/payment-store.js';
import { StoreConflictError } from '../ports/store-conflict.js';
import type { PaymentDeps } from './deps.js';

export interface LeaseClaim {
  from: LeaseOrigin;
  /** Names the credential (checkout response, card, 3DS transaction); never the credential itself. */
  credential: string;
  masked?: MaskedPaymentMethod;
  srcCheckout?: SrcCheckoutReference;
  payerIp?: string;
}

export type LeaseResult =
  | { kind: 'held'; leaseId: string; taken: LeaseTaken }
  | { kind: 'settled'; payment: Payment }
  /** Another credential's lease, expired and parked long enough that its holder is gone for good. */
  | { kind: 'abandoned'; current: Payment };

/**
 * SPEC §3: one attempt at a time. Takes the payment's lease with a conditional write, or
 * explains why not: the same request already settled it (idempotent answer), the lease is
 * held (409 with Retry-After), or another credential holds it (409 until it is abandoned).
 */
export async function takeLease(deps: PaymentDeps, payment: Payment, claim: LeaseClaim): Promise<LeaseResult> {
  const leaseId = randomUUID();
  const now = deps.now();
  // The item just read says which transition to ask for; if it changed since (released, or
  // leased and expired meanwhile), the other one is asked for once, as one OR-ed condition would.
  const rule = { fresh: LEASE_RULE.fresh(claim.from), takeover: LEASE_RULE.takeover(claim.from, claim.credential, now) };
  let takeover = payment.state === 'PROCESSING';
  for (let attempt = 1; ; attempt++) {
    try {
      const requires = takeover ? rule.takeover : rule.fresh;
      const taken = await deps.payments.acquireLease(payment, { ...claim, leaseId, leaseUntil: now + deps.settings.leaseMs, now, requires });
      return { kind: 'held', leaseId, taken };
    } catch (error) {
      if (!(error instanceof StoreConflictError)) throw error;
      const current = await currentOf(deps, payment, error);
      // Our write landed, its answer was lost, and the SDK's retry met our own lease: it is ours.
      // What it replaced is unknown, so count it as a takeover (the acquirer is asked first).
      if (current?.state === 'PROCESSING' && current.leaseId === leaseId) {
        return { kind: 'held', leaseId, taken: { takeover: true, ...(current.parkedUntil ? { parkedUntil: current.parkedUntil } : {}), leased: current } };
      }
      const other = current !== undefined && satisfies(current, takeover ? rule.fresh : rule.takeover);
      if (other && attempt === 1) {
        takeover = !takeover;
        continue;
      }
      if (current?.state === 'PROCESSING' && current.leaseFrom === claim.from && abandonedAt(deps, current) <= now) {
        return { kind: 'abandoned', current };
      }
      return { kind: 'settled', payment: settledOrConflict(deps, current, claim.credential, now) };
    }
  }
}

/**
 * When another credential may step in: once the lease has expired, any request that may
 * have been in flight can no longer land (`parkedUntil`), and a further lease period has
 * passed without its own credential coming back to finish it.
 */
function abandonedAt(deps: { settings: Pick<PaymentDeps['settings'], 'leaseMs'> }, current: Payment): number {
  return Math.max(current.leaseUntil ?? 0, current.parkedUntil ?? 0) + deps.settings.leaseMs;
}

/** The payment as the failed condition saw it when the store could tell, else a strongly consistent read. */
export async function currentOf(
  deps: { payments: Pick<PaymentDeps['payments'], 'get'> },
  payment: Pick<Payment, 'orderRef' | 'paymentRef'>,
  error: StoreConflictError,
): Promise<Payment | undefined> {
  if (error.current) return error.current as unknown as Payment;
  return deps.payments.get(payment.orderRef, payment.paymentRef);
}

/**
 * We lost a race, or came back: the same credential gets the settled payment (its earlier
 * answer was lost); otherwise 409 — with Retry-After while a lease is live or still bound to
 * another credential.
 */
export function settledOrConflict(
  deps: { settings: Pick<PaymentDeps['settings'], 'leaseMs'> },
  current: Payment | undefined,
  credential: string | undefined,
  now: number,
): Payment {
  if (current && credential !== undefined && settledWith(current, credential)) return current;
  if (current?.state !== 'PROCESSING') {
    throw new PaymentStateConflictError('This payment cannot be processed in its current state.');
  }
  if ((current.leaseUntil ?? 0) > now) {
    throw new PaymentStateConflictError('This payment is being processed; retry shortly.', { retryAfterMs: (current.leaseUntil ?? now) - now });
  }
  throw new PaymentStateConflictError('An earlier attempt with another payment credential holds this payment.', {
    retryAfterMs: abandonedAt(deps, current) - now,
  });
}

/** SPEC 4.3 step 7: only a STARTED payment (or one whose lease may be taken over) can be paid. */
export function assertPayable(payment: Payment): void {
  if (payment.state !== 'STARTED' && payment.state !== 'PROCESSING') {
    throw new PaymentStateConflictError(`The payment is ${payment.state}; it cannot be paid again.`);
  }
}

/**
 * The payment was settled by this very credential: the same request sent again (its answer
 * lost, say) gets the outcome, not a 409 (4.3, 4.4 and 4.10 alike).
 */
export function settledWith(payment: Payment, credential: string): boolean {
  return isSettled(payment) && payment.settledCredential === credential;
}

export function isSettled(payment: Payment): boolean {
  return payment.state !== 'STARTED' && payment.state !== 'PROCESSING';
}
