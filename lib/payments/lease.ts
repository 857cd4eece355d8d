import { randomUUID } from 'node:crypto';
import type { Payment } from '../domain/payment.js';
import { PaymentStateConflictError } from '../errors.js';
import { ConditionFailed } from '../repositories/dynamo.js';
import { stripItem } from '../repositories/order-repository.js';
import type { LeaseOrigin, LeaseTaken } from '../repositories/payment-repository.js';
import type { PaymentDeps } from './deps.js';

export interface LeaseClaim {
  from: LeaseOrigin;
  /** Names the credential (checkout response, card, 3DS transaction); never the credential itself. */
  credential: string;
  checkoutKey?: string;
  payerIp?: string;
}

export type LeaseResult = { kind: 'held'; leaseId: string; taken: LeaseTaken } | { kind: 'settled'; payment: Payment };

/**
 * SPEC §3: one attempt at a time. Takes the payment's lease with a conditional write, or
 * explains why not: the same checkout response already settled it (idempotent answer), the
 * lease is held (409 with Retry-After), or another credential holds an expired lease (409).
 */
export async function takeLease(deps: PaymentDeps, payment: Payment, claim: LeaseClaim): Promise<LeaseResult> {
  const leaseId = randomUUID();
  const now = deps.now();
  try {
    const taken = await deps.payments.acquireLease(payment, {
      ...claim,
      leaseId,
      leaseUntil: now + deps.settings.leaseMs,
      now,
    });
    return { kind: 'held', leaseId, taken };
  } catch (error) {
    if (!(error instanceof ConditionFailed)) throw error;
    const current = await currentOf(deps, payment, error);
    // Our write landed, its answer was lost, and the SDK's retry met our own lease: it is ours.
    // What it replaced is unknown, so count it as a takeover (the acquirer is asked first).
    if (current?.state === 'PROCESSING' && current.leaseId === leaseId) {
      return { kind: 'held', leaseId, taken: { takeover: true, acquirerAsked: current.acquirerAsked === true } };
    }
    return { kind: 'settled', payment: settledOrConflict(current, claim.checkoutKey, now) };
  }
}

/** The item the failed condition saw (ALL_OLD), else a strongly consistent read. */
export async function currentOf(deps: PaymentDeps, payment: Payment, error: ConditionFailed): Promise<Payment | undefined> {
  if (error.existing) return stripItem<Payment>(error.existing);
  return deps.payments.get(payment.orderRef, payment.paymentRef);
}

/** We lost a race: another attempt holds the lease, or the payment is already settled. */
export function settledOrConflict(current: Payment | undefined, checkoutKey: string | undefined, now: number): Payment {
  if (current && checkoutKey && current.checkoutKey === checkoutKey && isSettled(current)) return current;
  if (current?.state !== 'PROCESSING') {
    throw new PaymentStateConflictError('This payment cannot be processed in its current state.');
  }
  if ((current.leaseUntil ?? 0) > now) {
    const seconds = Math.max(1, Math.ceil(((current.leaseUntil ?? now) - now) / 1000));
    throw new PaymentStateConflictError('This payment is being processed; retry shortly.', { headers: { 'Retry-After': String(seconds) } });
  }
  throw new PaymentStateConflictError('An earlier attempt with another payment credential holds this payment.');
}

/** SPEC 4.3 step 7: only a STARTED payment (or one whose lease may be taken over) can be paid. */
export function assertPayable(payment: Payment): void {
  if (payment.state !== 'STARTED' && payment.state !== 'PROCESSING') {
    throw new PaymentStateConflictError(`The payment is ${payment.state}; it cannot be paid again.`);
  }
}

export function isSettled(payment: Payment): boolean {
  return payment.state !== 'STARTED' && payment.state !== 'PROCESSING';
}
