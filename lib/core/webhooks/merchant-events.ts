import { StoreConflictError } from '../ports/store-conflict.js';
import type { Principal } from '../auth/principal.js';
import { NotFoundError } from '../errors.js';
import { wholeMerchantInScope } from '../merchants/merchants.js';
import type { MerchantEventStore, StoredEvent } from '../ports/outbox-store.js';
import type { ConfigStore } from '../ports/config-store.js';

export interface MerchantEventsDeps {
  config: Pick<ConfigStore, 'getMerchant'>;
  events: MerchantEventStore;
  now: () => number;
}

/** SPEC 4.15 `GET …/events[?after=…]`: oldest first, a page at a time, with delivery attempts. */
export async function listMerchantEvents(deps: MerchantEventsDeps, principal: Principal, merchantRef: string, page: { after?: string; limit: number }) {
  await wholeMerchantInScope(deps.config, principal, merchantRef);
  const events = await deps.events.list(merchantRef, page.after, page.limit);
  return {
    events: events.map(eventView),
    ...(events.length === page.limit ? { next: events.at(-1)!.id } : {}),
  };
}

/** SPEC 4.15 `POST …/events/{eventId}/redeliver`: due again now, from the start of the schedule. */
export async function redeliverMerchantEvent(deps: MerchantEventsDeps, principal: Principal, merchantRef: string, eventId: string) {
  await wholeMerchantInScope(deps.config, principal, merchantRef);
  try {
    await deps.events.redeliver(merchantRef, eventId, deps.now());
  } catch (error) {
    if (error instanceof StoreConflictError) throw new NotFoundError();
    throw error;
  }
  return { id: eventId, status: 'PENDING' as const };
}

function eventView(event: StoredEvent) {
  const { data } = JSON.parse(event.body) as { data: unknown };
  return {
    id: event.id,
    type: event.type,
    createdAt: event.createdAt,
    data,
    delivery: {
      status: event.status,
      attempts: event.attempts,
      ...(event.status === 'PENDING' && event.dueAt !== undefined ? { nextAttemptAt: new Date(event.dueAt).toISOString() } : {}),
    },
  };
}
