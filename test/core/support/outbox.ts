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

/** A promise the test resolves: an acquirer answer that waits until the test lets it through. */
export function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  let entered!: () => void;
  const reached = new Promise<void>((resolve) => {
    entered = resolve;
  });
  return {
    /** Resolves once a call is waiting at the gate. */
    reached,
    open,
    answer: async <T>(_call: unknown, perform: () => T): Promise<T> => {
      entered();
      await opened;
      return perform();
    },
  };
}
