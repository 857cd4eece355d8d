import { remainingMs } from '../deadline.js';
import { isOutboxConfirmation } from '../network/confirmation.js';
import { isOutboxRecovery } from '../payments/recovery-entry.js';
import type { Logger } from '../ports/logger.js';
import type { OutboxEntry } from '../ports/outbox.js';
import type { DeliveryAttempt, DeliveryKind, DueItem, DueRef, NextAttempt, OutboxStore, StoredDelivery } from '../ports/outbox-store.js';
import { StoreConflictError } from '../ports/store-conflict.js';

/** Work is not started with less than this left: a send takes up to 10 s, then the record. */
export const DELIVERY_RESERVE_MS = 12_000;

/**
 * Exponential backoff: 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, 8 h, 10 h — eleven
 * attempts over 25.7 h, so a receiver that is down for a day still gets every event.
 */
export const RETRY_DELAYS_MS = [5, 30, 120, 600, 1_800, 3_600, 7_200, 14_400, 28_800, 36_000].map((s) => s * 1000);

export type DueOutcome = 'drained' | 'delivered' | 'retry' | 'failed' | 'not-configured' | 'skipped';

/**
 * One kind of delivery the outbox carries (a merchant's webhook event, a network confirmation):
 * how an outbox entry of its kind is kept as a delivery of its own, and one attempt to deliver it.
 * The worker knows no kind; it hands each due delivery to the deliverer of the kind the store says.
 */
export interface Deliverer {
  keep(store: OutboxStore, entry: OutboxEntry, now: number): Promise<DueRef>;
  deliver(worker: OutboxWorkerDeps, ref: DueRef, logger: Logger): Promise<DueOutcome>;
}

export interface OutboxWorkerDeps {
  store: OutboxStore;
  deliverers: Readonly<Record<DeliveryKind, Deliverer>>;
  now: () => number;
  settings: {
    /** Delay after the n-th failed attempt; past the last one the delivery is FAILED (SPEC: ≥ 24 h). */
    retryDelaysMs: readonly number[];
    /** A claimed attempt that never reports back is due again after this (sender timeout + margin). */
    claimMs: number;
  };
}

/** Which deliverer an outbox entry goes to. */
export const deliveryKindOf = (entry: OutboxEntry): DeliveryKind =>
  isOutboxConfirmation(entry) ? 'confirmation' : isOutboxRecovery(entry) ? 'recovery' : 'webhook';

/** One due item, whatever it is: a payment with an outbox to drain, or a delivery to attempt. */
export async function processDue(deps: OutboxWorkerDeps, item: DueItem, logger: Logger): Promise<DueOutcome[]> {
  if (item.kind !== 'outbox') return [await deps.deliverers[item.kind].deliver(deps, item.ref, logger)];
  const moved = await drainOutbox(deps, item.ref);
  if (moved.length === 0) return ['skipped'];
  logger.info('outbox drained', { pk: item.ref.pk, events: moved.map(({ entry }) => entry.id) });
  // In the order they happened (a receiver still must not rely on it: retries reorder).
  const outcomes: DueOutcome[] = [];
  for (const { kind, ref } of moved) outcomes.push(await deps.deliverers[kind].deliver(deps, ref, logger));
  return ['drained', ...outcomes];
}

/**
 * Moves a payment's outbox into deliveries (each stored once), then empties the outbox only if
 * it still holds exactly what was moved (the same entries, not just as many) — an entry added
 * meanwhile stays for the next round. A crash between the two steps only repeats the
 * (idempotent) first one.
 */
export async function drainOutbox(deps: OutboxWorkerDeps, ref: DueRef): Promise<{ entry: OutboxEntry; kind: DeliveryKind; ref: DueRef }[]> {
  for (let round = 0; round < 5; round++) {
    const outbox = await deps.store.outboxOf(ref);
    if (outbox.length === 0) return [];
    const now = deps.now();
    const kept = [];
    for (const entry of outbox) {
      const kind = deliveryKindOf(entry);
      kept.push({ entry, kind, ref: await deps.deliverers[kind].keep(deps.store, entry, now) });
    }
    try {
      await deps.store.clearOutbox(ref, outbox);
      return kept;
    } catch (error) {
      if (!(error instanceof StoreConflictError)) throw error;
    }
  }
  return []; // a very busy payment: the sweep comes back
}

/**
 * Claims a due delivery for one attempt, or undefined: another worker holds it, or too little
 * of the invocation is left — a send takes up to the sender's timeout and its record must land
 * before the deadline, so the delivery stays due for the next invocation (stream or sweep).
 */
export async function claimDue(
  deps: OutboxWorkerDeps,
  ref: DueRef,
): Promise<{ item: StoredDelivery; now: number; claimedUntil: number; at: string } | undefined> {
  if (remainingMs() < DELIVERY_RESERVE_MS) return undefined;
  const now = deps.now();
  const claimedUntil = now + deps.settings.claimMs;
  const item = await deps.store.claim(ref, now, claimedUntil);
  if (!item) return undefined;
  return { item, now, claimedUntil, at: new Date(now).toISOString() };
}

/** What one send (a webhook POST, a network confirmation) came to. */
export interface AttemptResult {
  ok: boolean;
  status?: number;
  error?: string;
  durationMs: number;
}

/**
 * The attempt as recorded and what follows it (every kind alike): delivered, due again after the
 * next backoff delay, or FAILED after the last.
 */
export function settleAttempt(deps: OutboxWorkerDeps, failures: number, result: AttemptResult, at: string) {
  const attempt: DeliveryAttempt = {
    at,
    ...(result.status !== undefined ? { status: result.status } : {}),
    ...(result.error ? { error: result.error } : {}),
    durationMs: result.durationMs,
  };
  const delay = deps.settings.retryDelaysMs[failures];
  const next: NextAttempt = result.ok ? { status: 'DELIVERED' } : delay === undefined ? { status: 'FAILED' } : { dueAt: deps.now() + delay };
  const outcome = result.ok ? 'delivered' : 'status' in next ? 'failed' : 'retry';
  return { attempt, next, outcome } as const;
}

/**
 * Stores a claimed delivery's attempt and next state, then trims its history. When the claim ran
 * out (a very slow send) and another worker took over, or a redelivery superseded it, their
 * record stands: this attempt only joins the history, and `outlived` is told.
 */
export async function storeAttempt(
  deps: OutboxWorkerDeps,
  ref: DueRef,
  claimedUntil: number,
  previous: readonly DeliveryAttempt[],
  attempt: DeliveryAttempt,
  next: NextAttempt,
  outlived: () => void,
): Promise<void> {
  try {
    await deps.store.recordAttempt(ref, claimedUntil, attempt, next);
  } catch (error) {
    if (!(error instanceof StoreConflictError)) throw error;
    outlived();
    await deps.store.appendAttempt(ref, attempt);
  }
  await deps.store.trimAttempts(ref, [...previous, attempt]).catch(() => undefined);
}

/** Everything due now, a bounded batch, a few at a time (the scheduled sweep and the local loop). */
export async function sweep(deps: OutboxWorkerDeps, logger: Logger, options: { perShard: number; concurrency: number; stopAt: number }): Promise<number> {
  return work(deps, logger, await deps.store.due(deps.now(), options.perShard), options);
}

/**
 * One invocation of the worker: the items a stream said became due (its fast path), or a sweep
 * of everything due when there are none (the schedule). Never past the invocation's budget.
 */
export async function runDelivery(deps: OutboxWorkerDeps, logger: Logger, items: DueItem[] | undefined, remaining: number): Promise<number> {
  const stopAt = deps.now() + Math.max(0, remaining - DELIVERY_RESERVE_MS);
  if (!items) return sweep(deps, logger, { perShard: 25, concurrency: 8, stopAt });
  return work(deps, logger, items, { concurrency: items.length, stopAt });
}

async function work(deps: OutboxWorkerDeps, logger: Logger, items: readonly DueItem[], options: { concurrency: number; stopAt: number }): Promise<number> {
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < items.length && deps.now() < options.stopAt) {
      const item = items[next++]!;
      try {
        await processDue(deps, item, logger);
        done++;
      } catch (error) {
        logger.warn('due item not processed; it stays due', { pk: item.ref.pk, sk: item.ref.sk, error });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
  return done;
}
