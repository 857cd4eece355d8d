import { paymentOutboxRef } from '../../../lib/adapters/memory/tables.js';
import type { OutboxEntry } from '../../../lib/core/ports/outbox.js';
import type { CoreWorld } from './world.js';

/** What a payment's writes announced and nobody drained yet: event types, and confirmations by outcome. */
export async function announced(world: CoreWorld, ids: { orderRef: string; paymentRef: string }): Promise<string[]> {
  const outbox = await world.stores.outbox.outboxOf(paymentOutboxRef(ids.orderRef, ids.paymentRef));
  return outbox.map(describe);
}

function describe(entry: OutboxEntry): string {
  if ('type' in entry) return entry.type;
  return `confirmation:${(JSON.parse(entry.body) as { outcome: string }).outcome}`;
}
