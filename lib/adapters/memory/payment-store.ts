import { LEASE_FIELDS, satisfies, type LeaseOrigin } from '../../core/domain/lease-rule.js';
import type { Payment } from '../../core/domain/payment.js';
import type { OutboxEntry } from '../../core/ports/outbox.js';
import type { FinalPatch, LeaseRequest, LeaseTaken, PaymentStore, PendingThreeDs } from '../../core/ports/payment-store.js';
import { appendToOutbox } from './outbox-append.js';
import { conflict, copy, paymentKey, type MemoryTables, type PaymentRecord } from './tables.js';

type PaymentKey = Pick<Payment, 'orderRef' | 'paymentRef'>;

/**
 * The payment store in memory, with the DynamoDB store's conditions (payment-repository.ts):
 * the lease is taken only when the stored payment `satisfies` the request's LEASE_RULE clauses —
 * the very predicate the core reasons with —, and only the lease holder finishes, releases or
 * parks. A lost condition throws StoreConflictError with a copy of the payment as it was.
 */
export class MemoryPaymentStore implements PaymentStore {
  constructor(private readonly tables: MemoryTables) {}

  async get(orderRef: string, paymentRef: string): Promise<Payment | undefined> {
    const record = this.tables.payments.get(paymentKey(orderRef, paymentRef));
    return record && copy(record.payment);
  }

  async acquireLease(payment: PaymentKey, lease: LeaseRequest): Promise<LeaseTaken> {
    const record = this.tables.payments.get(paymentKey(payment.orderRef, payment.paymentRef));
    if (!record || !satisfies(record.payment, lease.requires)) throw conflict(record?.payment);
    const old = record.payment;
    const leased: Payment = {
      ...old,
      state: 'PROCESSING',
      leaseId: lease.leaseId,
      leaseUntil: lease.leaseUntil,
      leaseFrom: lease.from,
      version: old.version + 1,
      updatedAt: new Date(lease.now).toISOString(),
      leaseCredential: lease.credential,
      // Only what the request names is written: a takeover without them keeps the earlier ones.
      ...(lease.masked ? { leaseMasked: lease.masked } : {}),
      ...(lease.payerIp ? { payerIp: lease.payerIp } : {}),
      ...(lease.srcCheckout ? { srcCheckout: lease.srcCheckout } : {}),
    };
    record.payment = copy(leased);
    return { takeover: old.state === 'PROCESSING', ...(typeof old.parkedUntil === 'number' ? { parkedUntil: old.parkedUntil } : {}), leased };
  }

  async finish(
    payment: PaymentKey,
    leaseId: string,
    patch: FinalPatch,
    credential: string | undefined,
    events: readonly OutboxEntry[],
    now: number,
    settled?: Payment,
  ): Promise<Payment> {
    const record = this.holderOf(payment, leaseId);
    const after: Record<string, unknown> = {
      ...record.payment,
      ...Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)),
      version: record.payment.version + 1,
      updatedAt: new Date(now).toISOString(),
      settledBy: leaseId,
      ...(credential ? { settledCredential: credential } : {}),
    };
    for (const field of LEASE_FIELDS) delete after[field];
    record.payment = copy(after as unknown as Payment);
    appendToOutbox(record, events, now);
    return settled ?? copy(record.payment);
  }

  async release(payment: PaymentKey, leaseId: string, to: LeaseOrigin, now: number): Promise<void> {
    const record = this.holderOf(payment, leaseId);
    const after: Record<string, unknown> = { ...record.payment, state: to, version: record.payment.version + 1, updatedAt: new Date(now).toISOString() };
    for (const field of LEASE_FIELDS) delete after[field];
    record.payment = after as unknown as Payment;
  }

  /** With `processorReference`, recorded, and `events` appended to the outbox in the same step. */
  async park(
    payment: PaymentKey,
    leaseId: string,
    now: number,
    parkedUntil: number,
    processorReference?: string,
    events: readonly OutboxEntry[] = [],
  ): Promise<void> {
    const record = this.holderOf(payment, leaseId);
    record.payment = {
      ...record.payment,
      leaseUntil: now,
      parkedUntil,
      ...(processorReference ? { processorReference } : {}),
      version: record.payment.version + 1,
      updatedAt: new Date(now).toISOString(),
    };
    appendToOutbox(record, events, now);
  }

  /** With `unlessAReqSentFor`: only if no AReq was claimed for that transaction id yet (the AReq claim). */
  async putPendingThreeDs(orderRef: string, paymentRef: string, pending: PendingThreeDs, options: { unlessAReqSentFor?: string } = {}): Promise<void> {
    const key = paymentKey(orderRef, paymentRef);
    const existing = this.tables.pendingThreeDs.get(key);
    if (options.unlessAReqSentFor !== undefined && existing?.areqSentFor === options.unlessAReqSentFor) throw conflict(existing);
    this.tables.pendingThreeDs.set(key, copy(pending));
  }

  /** Absent once expired, whether or not anything has removed it yet (TTL deletion is lazy). */
  async getPendingThreeDs(orderRef: string, paymentRef: string, now: number): Promise<PendingThreeDs | undefined> {
    const pending = this.tables.pendingThreeDs.get(paymentKey(orderRef, paymentRef));
    if (!pending || pending.expiresAt * 1000 <= now) return undefined;
    return copy(pending);
  }

  async deletePendingThreeDs(orderRef: string, paymentRef: string): Promise<void> {
    this.tables.pendingThreeDs.delete(paymentKey(orderRef, paymentRef));
  }

  /** The payment's record while `leaseId` holds it (PROCESSING under that lease), else the conflict. */
  private holderOf(payment: PaymentKey, leaseId: string): PaymentRecord {
    const record = this.tables.payments.get(paymentKey(payment.orderRef, payment.paymentRef));
    if (record?.payment.state !== 'PROCESSING' || record.payment.leaseId !== leaseId) throw conflict(record?.payment);
    return record;
  }
}
