import type { OutboxEntry } from '../../core/ports/outbox.js';
import { copy, type PaymentRecord } from './tables.js';

/**
 * Undelivered entries a payment may hold before it takes no new capture, refund or reversal:
 * the DynamoDB store's bound (its item must stay under 400 KB, lib/adapters/dynamodb/outbox.ts),
 * kept here too so the core meets the same refusal on either store (the contract tests check it).
 */
export const MAX_UNDRAINED_EVENTS = 10;

/** Appends a write's entries to the payment's outbox; the outbox is due from its first undrained write on. */
export function appendToOutbox(record: PaymentRecord, events: readonly OutboxEntry[], now: number): void {
  if (events.length === 0) return;
  record.outbox.push(...copy([...events]));
  record.dueAt ??= now;
}
