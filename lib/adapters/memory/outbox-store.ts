import type { EventType, OutboxEvent } from '../../core/events/payment-event.js';
import type { OutboxConfirmation } from '../../core/network/confirmation.js';
import type { OutboxRecovery } from '../../core/payments/recovery-entry.js';
import type { OutboxEntry } from '../../core/ports/outbox.js';
import type {
  DeliveryAttempt,
  DeliveryKind,
  DueItem,
  DueRef,
  MerchantEventStore,
  NextAttempt,
  OutboxStore,
  StoredDelivery,
  StoredEvent,
} from '../../core/ports/outbox-store.js';
import { conflict, copy, ORDER_PREFIX, PAYMENT_PREFIX, paymentKey, paymentOutboxRef, refKey, type DeliveryRecord, type MemoryTables } from './tables.js';

/** Deliveries are kept this long, delivered or not (as in DynamoDB, never read back). */
const RETENTION_SECONDS = 30 * 24 * 3600;
/** Attempts kept per delivery (the oldest are dropped). */
const MAX_ATTEMPTS_KEPT = 30;
/** The DynamoDB store reads `perShard` items from each of its 8 due-index shards: at most as many here. */
const DUE_SHARDS = 8;

const eventRef = (merchantRef: string, eventId: string): DueRef => ({ pk: `events/${merchantRef}`, sk: `event/${eventId}` });
const confirmationRef = (merchantRef: string, id: string): DueRef => ({ pk: `confirmations/${merchantRef}`, sk: `confirmation/${id}` });
const recoveryRef = (merchantRef: string, id: string): DueRef => ({ pk: `recoveries/${merchantRef}`, sk: `recovery/${id}` });

/**
 * The outbox and the deliveries in memory, with the DynamoDB store's conditions
 * (event-repository.ts): an outbox is cleared only while it holds exactly what was seen, a
 * delivery is stored once, claimed by one attempt while due, and settled only under the claim
 * that attempt took; a redelivery restarts the schedule without cutting an attempt in flight.
 */
export class MemoryOutboxStore implements OutboxStore, MerchantEventStore {
  constructor(private readonly tables: MemoryTables) {}

  async due(now: number, perShard: number): Promise<DueItem[]> {
    const outboxes = [...this.tables.payments.values()]
      .filter((record) => record.outbox.length > 0 && record.dueAt !== undefined && record.dueAt <= now)
      .map((record) => ({
        dueAt: record.dueAt!,
        item: { ref: paymentOutboxRef(record.payment.orderRef, record.payment.paymentRef), kind: 'outbox' as const },
      }));
    const deliveries = [...this.tables.deliveries.values()]
      .filter((record) => record.dueAt !== undefined && record.dueAt <= now)
      .map((record) => ({ dueAt: record.dueAt!, item: { ref: { ...record.ref }, kind: record.kind } }));
    return [...outboxes, ...deliveries]
      .sort((a, b) => a.dueAt - b.dueAt)
      .slice(0, perShard * DUE_SHARDS)
      .map(({ item }) => item);
  }

  async outboxOf(ref: DueRef): Promise<OutboxEntry[]> {
    return copy(this.paymentAt(ref)?.outbox ?? []);
  }

  /** Only while the outbox holds exactly `seen`: it only grows by appends, so "as many, the same first" is "the same". */
  async clearOutbox(ref: DueRef, seen: readonly Pick<OutboxEntry, 'id'>[]): Promise<void> {
    const record = this.paymentAt(ref);
    if (!record || record.outbox.length === 0 || record.outbox.length !== seen.length || record.outbox[0]!.id !== (seen[0]?.id ?? '')) {
      throw conflict(record?.payment);
    }
    record.outbox = [];
    record.dueAt = undefined;
  }

  async putEvent(event: OutboxEvent, now: number): Promise<DueRef> {
    return this.putDelivery('webhook', eventRef(event.merchantRef, event.id), event, now);
  }

  async putConfirmation(confirmation: OutboxConfirmation, now: number): Promise<DueRef> {
    return this.putDelivery('confirmation', confirmationRef(confirmation.merchantRef, confirmation.id), confirmation, now);
  }

  async putRecovery(recovery: OutboxRecovery, now: number): Promise<DueRef> {
    return this.putDelivery('recovery', recoveryRef(recovery.merchantRef, recovery.id), recovery, now);
  }

  async claim(ref: DueRef, now: number, until: number): Promise<StoredDelivery | undefined> {
    const record = this.tables.deliveries.get(refKey(ref));
    if (record?.status !== 'PENDING' || record.dueAt === undefined || record.dueAt > now) return undefined;
    record.dueAt = until;
    record.claimedUntil = until;
    return storedDelivery(record);
  }

  async recordAttempt(ref: DueRef, claimedUntil: number, attempt: DeliveryAttempt, next: NextAttempt): Promise<void> {
    const record = this.tables.deliveries.get(refKey(ref));
    if (record?.status !== 'PENDING' || record.claimedUntil !== claimedUntil) throw conflict(record && storedDelivery(record));
    record.attempts.push(copy(attempt));
    record.claimedUntil = undefined;
    if ('status' in next) {
      record.status = next.status;
      record.dueAt = undefined;
    } else {
      record.dueAt = next.dueAt;
      record.failures += 1;
    }
  }

  async appendAttempt(ref: DueRef, attempt: DeliveryAttempt): Promise<void> {
    const record = this.tables.deliveries.get(refKey(ref));
    if (!record) throw conflict(undefined);
    record.attempts.push(copy(attempt));
  }

  /** Never drops an attempt appended meanwhile: only over the history as long as it was seen. */
  async trimAttempts(ref: DueRef, attempts: DeliveryAttempt[]): Promise<void> {
    if (attempts.length <= MAX_ATTEMPTS_KEPT) return;
    const record = this.tables.deliveries.get(refKey(ref));
    if (record?.attempts.length !== attempts.length) throw conflict(record && storedDelivery(record));
    record.attempts = copy(attempts.slice(-MAX_ATTEMPTS_KEPT));
  }

  /**
   * Due again from the start of the schedule. An attempt in flight keeps the event until its claim
   * ends (two workers never send it at once) and loses the claim, so its outcome settles nothing.
   */
  async redeliver(merchantRef: string, eventId: string, now: number): Promise<void> {
    const record = this.tables.deliveries.get(refKey(eventRef(merchantRef, eventId)));
    if (!record) throw conflict(undefined);
    if (record.claimedUntil === undefined || record.claimedUntil <= now) {
      Object.assign(record, { status: 'PENDING', dueAt: now, failures: 0, claimedUntil: undefined });
    } else if (record.status === 'PENDING') {
      Object.assign(record, { dueAt: record.claimedUntil, failures: 0, claimedUntil: undefined });
    } else {
      throw conflict(storedDelivery(record));
    }
  }

  /** A merchant's events, oldest first (ids sort by time), after the event id `after`. */
  async list(merchantRef: string, after: string | undefined, limit: number): Promise<StoredEvent[]> {
    return [...this.tables.deliveries.values()]
      .filter((record) => record.kind === 'webhook' && record.entry.merchantRef === merchantRef && (after === undefined || record.entry.id > after))
      .sort((a, b) => (a.entry.id < b.entry.id ? -1 : a.entry.id > b.entry.id ? 1 : 0))
      .slice(0, limit)
      .map(storedDelivery);
  }

  /** A merchant's stored network confirmations (what ConfirmationRepository reads for operators and tests). */
  confirmations(merchantRef: string): StoredDelivery[] {
    return [...this.tables.deliveries.values()]
      .filter((record) => record.kind === 'confirmation' && record.entry.merchantRef === merchantRef)
      .map(storedDelivery);
  }

  private putDelivery(kind: DeliveryKind, ref: DueRef, entry: OutboxEntry, now: number): DueRef {
    const key = refKey(ref);
    // Stored once: a second drain of the same outbox finds it and moves on.
    if (!this.tables.deliveries.has(key)) {
      this.tables.deliveries.set(key, {
        kind,
        ref,
        entry: copy(entry),
        status: 'PENDING',
        attempts: [],
        failures: 0,
        dueAt: now,
        claimedUntil: undefined,
        expiresAt: Math.floor(now / 1000) + RETENTION_SECONDS,
      });
    }
    return { ...ref };
  }

  /** The payment a `paymentOutboxRef` names (undefined for any other ref). */
  private paymentAt(ref: DueRef) {
    if (!ref.pk.startsWith(ORDER_PREFIX) || !ref.sk.startsWith(PAYMENT_PREFIX)) return undefined;
    return this.tables.payments.get(paymentKey(ref.pk.slice(ORDER_PREFIX.length), ref.sk.slice(PAYMENT_PREFIX.length)));
  }
}

/** A delivery as the port shows it (an event's fields, or a confirmation's, with the bookkeeping). */
function storedDelivery(record: DeliveryRecord): StoredDelivery {
  const { id, createdAt, merchantRef, body } = record.entry;
  return copy({
    id,
    type: (record.entry as Partial<OutboxEvent>).type as EventType,
    createdAt,
    merchantRef,
    body,
    status: record.status,
    attempts: record.attempts,
    failures: record.failures,
    ...(record.dueAt !== undefined ? { dueAt: record.dueAt } : {}),
  });
}
