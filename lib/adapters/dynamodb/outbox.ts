import { createHash } from 'node:crypto';
import type { OutboxEvent } from '../../core/events/payment-event.js';
import type { OutboxConfirmation } from '../../core/network/confirmation.js';
import type { OutboxRecovery } from '../../core/payments/recovery-entry.js';

/** What an outbox holds: the merchant's webhook events, the card network's confirmations, processor recoveries. */
export type OutboxEntry = OutboxEvent | OutboxConfirmation | OutboxRecovery;

/**
 * The transactional outbox without transactions (SPEC §4.15): the write that changes a payment
 * also appends its events to the item's `outbox` list and marks the item due. `dueShard` +
 * `dueAt` are the keys of the sparse `due` index, which only holds items with something to do
 * (an outbox to drain, an event to deliver); a sweeper reads it, so a crash right after the
 * state change loses nothing.
 */
export const DUE_INDEX = 'due';

/**
 * Undelivered events an item may hold before it takes no new capture, refund or reversal. Each
 * event carries the whole payment resource (up to `maxOperations` entries, ~15–20 KB), so an
 * outbox nobody drains (the delivery worker down) would otherwise push the item past
 * DynamoDB's 400 KB limit — and the write that fails is the one recording an operation the
 * acquirer has already performed. 10 such events and the item stay far below it.
 */
export const MAX_UNDRAINED_EVENTS = 10;
export const DUE_SHARDS = 8;

/** Spreads due items over a few index partitions (one hot partition would cap throughput). */
export function dueShard(pk: string): string {
  return `DUE#${createHash('sha256').update(pk).digest()[0]! % DUE_SHARDS}`;
}

export const ALL_DUE_SHARDS = Array.from({ length: DUE_SHARDS }, (_, n) => `DUE#${n}`);

/** UpdateExpression SET clauses (and their values) that append events to an item's outbox. */
export function appendToOutbox(pk: string, events: readonly OutboxEntry[], now: number): { set: string[]; values: Record<string, unknown> } {
  if (events.length === 0) return { set: [], values: {} };
  return {
    set: ['outbox = list_append(if_not_exists(outbox, :noEvents), :outboxEvents)', 'dueShard = :dueShard', 'dueAt = if_not_exists(dueAt, :dueNow)'],
    values: { ':noEvents': [], ':outboxEvents': [...events], ':dueShard': dueShard(pk), ':dueNow': now },
  };
}
