import type { OutboxEvent } from '../events/payment-event.js';
import type { OutboxConfirmation } from '../network/confirmation.js';
import type { OutboxEntry } from './outbox.js';
import type { OutboxRecovery } from '../payments/recovery-entry.js';

/** What the outbox worker delivers: a merchant's webhook event, a network confirmation, or a processor recovery. */
export type DeliveryKind = 'webhook' | 'confirmation' | 'recovery';

/** Where a due item lives, as the store names it: opaque to the core, handed back as it came. */
export interface DueRef {
  readonly pk: string;
  readonly sk: string;
}

/**
 * Something due: a payment whose outbox waits to be drained, or a delivery (event or
 * confirmation) waiting for its next attempt. The store says which; the worker never parses a ref.
 */
export interface DueItem {
  ref: DueRef;
  kind: 'outbox' | DeliveryKind;
}

export type DeliveryStatus = 'PENDING' | 'DELIVERED' | 'FAILED' | 'NOT_CONFIGURED';

export interface DeliveryAttempt {
  at: string;
  status?: number;
  error?: string;
  durationMs: number;
}

/** A delivery as stored (a webhook event or a network confirmation), with its attempts. */
export interface StoredDelivery extends OutboxEvent {
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  /** Failed attempts since the schedule (re)started: picks the next delay. */
  failures: number;
  /** Epoch ms of the next attempt while PENDING. */
  dueAt?: number;
}

/** A merchant's stored webhook event (what GET …/events lists). */
export type StoredEvent = StoredDelivery;

export type NextAttempt = { status: 'DELIVERED' | 'FAILED' | 'NOT_CONFIGURED' } | { dueAt: number };

/**
 * The transactional outbox without transactions (SPEC 4.15): a payment's write appends its
 * entries to the payment's outbox and marks it due; the worker moves them into deliveries, one
 * record each, then delivers each on the retry schedule. Every change is a single conditional
 * write (StoreConflictError otherwise).
 */
export interface OutboxStore {
  /** Items due by `now` (a hint: each is claimed before it is worked on). */
  due(now: number, perShard: number): Promise<DueItem[]>;
  /** A payment's outbox alone. */
  outboxOf(ref: DueRef): Promise<OutboxEntry[]>;
  /** Empties the outbox only if it still holds exactly `seen` (conflicts otherwise). */
  clearOutbox(ref: DueRef, seen: readonly Pick<OutboxEntry, 'id'>[]): Promise<void>;
  /** Stores a webhook event once (a second drain finds it and moves on); where it lives. */
  putEvent(event: OutboxEvent, now: number): Promise<DueRef>;
  /** Stores a network confirmation once, due now; where it lives. */
  putConfirmation(confirmation: OutboxConfirmation, now: number): Promise<DueRef>;
  /** Stores a processor recovery once, due now; where it lives. */
  putRecovery(recovery: OutboxRecovery, now: number): Promise<DueRef>;
  /** Takes a due delivery for one attempt until `until`, or undefined (not due, or claimed). */
  claim(ref: DueRef, now: number, until: number): Promise<StoredDelivery | undefined>;
  /** Records an attempt and what follows, only while the claim taken until `claimedUntil` holds (conflicts otherwise). */
  recordAttempt(ref: DueRef, claimedUntil: number, attempt: DeliveryAttempt, next: NextAttempt): Promise<void>;
  /** Adds an attempt to the history only (its claim was lost). */
  appendAttempt(ref: DueRef, attempt: DeliveryAttempt): Promise<void>;
  /** Keeps the history bounded. */
  trimAttempts(ref: DueRef, attempts: DeliveryAttempt[]): Promise<void>;
}

/** A merchant's events (SPEC 4.15 GET …/events and redelivery). */
export interface MerchantEventStore {
  list(merchantRef: string, after: string | undefined, limit: number): Promise<StoredEvent[]>;
  /** Due again now, from the start of the schedule; StoreConflictError when unknown. */
  redeliver(merchantRef: string, eventId: string, now: number): Promise<void>;
}
