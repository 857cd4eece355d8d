import { StoreConflictError } from '../ports/store-conflict.js';
import type { Logger } from '../ports/logger.js';
import { deliverConfirmation, type ConfirmationDispatch } from '../network/confirmation-delivery.js';
import { isOutboxConfirmation } from '../network/confirmation.js';
import { CONFIRMATION_SK_PREFIX, confirmationKey } from '../../adapters/dynamodb/confirmation-repository.js';

import { eventKey, type DeliveryAttempt, type EventRepository, type ItemKey, type StoredEvent } from '../../adapters/dynamodb/event-repository.js';

import { signatureHeaders } from '../webhooks/signing.js';
import { remainingMs } from '../deadline.js';
import { METRIC, metrics } from '../ports/metrics.js';
import type { OutboxEntry } from '../ports/outbox.js';
import type { WebhookSender } from '../ports/webhook-sender.js';

/** Work is not started with less than this left: a send takes up to 10 s, then the record. */
export const DELIVERY_RESERVE_MS = 12_000;

/** Where a merchant's events go, with the secrets that sign them (current first). */
export interface WebhookEndpoint {
  url: string;
  enabled: boolean;
  allowLoopback: boolean;
  secrets: string[];
}

export interface WebhookEndpoints {
  endpointFor(merchantRef: string, now: number): Promise<WebhookEndpoint | undefined>;
}

export interface DispatchDeps {
  events: EventRepository;
  endpoints: WebhookEndpoints;
  sender: WebhookSender;
  /** Network confirmations (Mastercard, SPEC 4.3) share the outbox, the due index and the schedule. */
  confirmations: ConfirmationDispatch;
  now: () => number;
  settings: {
    /** Delay after the n-th failed attempt; past the last one the event is FAILED (SPEC: ≥ 24 h). */
    retryDelaysMs: readonly number[];
    /** A claimed attempt that never reports back is due again after this (sender timeout + margin). */
    claimMs: number;
  };
}

/**
 * Exponential backoff: 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, 8 h, 10 h — eleven
 * attempts over 25.7 h, so a receiver that is down for a day still gets every event.
 */
export const RETRY_DELAYS_MS = [5, 30, 120, 600, 1_800, 3_600, 7_200, 14_400, 28_800, 36_000].map((s) => s * 1000);

export type DueOutcome = 'drained' | 'delivered' | 'retry' | 'failed' | 'not-configured' | 'skipped';

/** One due item, whatever it is: a payment with an outbox, an event to deliver, or a network confirmation to send. */
export async function processDue(deps: DispatchDeps, key: ItemKey, logger: Logger): Promise<DueOutcome[]> {
  if (key.sk.startsWith('EVENT#')) return [await deliver(deps, key, logger)];
  if (key.sk.startsWith(CONFIRMATION_SK_PREFIX)) return [await deliverConfirmation(deps, key, logger)];
  const moved = await drainOutbox(deps, key);
  if (moved.length === 0) return ['skipped'];
  logger.info('outbox drained', { pk: key.pk, events: moved.map((event) => event.id) });
  // In the order they happened (a receiver still must not rely on it: retries reorder).
  const outcomes: DueOutcome[] = [];
  for (const entry of moved) {
    outcomes.push(
      isOutboxConfirmation(entry)
        ? await deliverConfirmation(deps, confirmationKey(entry.merchantRef, entry.id), logger)
        : await deliver(deps, eventKey(entry.merchantRef, entry.id), logger),
    );
  }
  return ['drained', ...outcomes];
}

/**
 * Moves a payment item's outbox into event items (each stored once), then empties the outbox
 * only if it still holds exactly what was moved (the same events, not just as many) — an event
 * added meanwhile stays for the next round. A crash between the two steps only repeats the (idempotent) first one.
 */
export async function drainOutbox(deps: DispatchDeps, key: ItemKey): Promise<OutboxEntry[]> {
  for (let round = 0; round < 5; round++) {
    const outbox = await deps.events.outboxOf(key);
    if (outbox.length === 0) return [];
    const now = deps.now();
    for (const entry of outbox) {
      if (isOutboxConfirmation(entry)) await deps.confirmations.repository.put(entry, now);
      else await deps.events.putEvent(entry, 'PENDING', now);
    }
    try {
      await deps.events.clearOutbox(key, outbox);
      return outbox;
    } catch (error) {
      if (!(error instanceof StoreConflictError)) throw error;
    }
  }
  return []; // a very busy item: the sweeper comes back
}

/**
 * One delivery attempt of a due event: claimed first (so two workers never send it at once),
 * signed with every live secret, POSTed with the sender's timeout, and recorded — delivered,
 * due again after the next backoff delay, or failed for good after the last.
 */
export async function deliver(deps: DispatchDeps, key: ItemKey, logger: Logger): Promise<DueOutcome> {
  const claimed = await claimDue(deps, key);
  if (!claimed) return 'skipped';
  const { item: event, now, claimedUntil, at } = claimed;
  let endpoint: WebhookEndpoint | undefined;
  let headers: Record<string, string>;
  try {
    endpoint = await deps.endpoints.endpointFor(event.merchantRef, now);
    if (!endpoint || !endpoint.enabled || endpoint.secrets.length === 0) return await notConfigured(deps, key, claimedUntil, at, logger, event.id);
    headers = { ...signatureHeaders({ id: event.id, timestamp: new Date(now), body: event.body, secrets: endpoint.secrets }) };
  } catch (error) {
    // The secrets could not be opened (KMS, DynamoDB) or do not sign: an attempt like any failed
    // one, on the same schedule, so a lasting fault ends FAILED and shows in the history.
    logger.warn('webhook secrets unavailable', { eventId: event.id, merchantRef: event.merchantRef, error });
    return record(deps, key, event, claimedUntil, { ok: false, error: 'secrets-unavailable', durationMs: 0 }, at, logger);
  }
  const result = await deps.sender.send({ url: endpoint.url, body: event.body, headers, allowLoopback: endpoint.allowLoopback });
  return record(deps, key, event, claimedUntil, result, at, logger);
}

/**
 * Claims a due item (event or network confirmation) for one attempt, or undefined: another
 * worker holds it, or too little of the invocation is left — a send takes up to the sender's
 * timeout and its record must land before the deadline, so the item stays due for the next
 * invocation (stream or sweep).
 */
export async function claimDue(deps: DispatchDeps, key: ItemKey): Promise<{ item: StoredEvent; now: number; claimedUntil: number; at: string } | undefined> {
  if (remainingMs() < DELIVERY_RESERVE_MS) return undefined;
  const now = deps.now();
  const claimedUntil = now + deps.settings.claimMs;
  const item = await deps.events.claim(key, now, claimedUntil);
  if (!item) return undefined;
  return { item, now, claimedUntil, at: new Date(now).toISOString() };
}

/** No webhook (or disabled): recorded once, never sent. A redelivery that took the claim over wins. */
async function notConfigured(deps: DispatchDeps, key: ItemKey, claimedUntil: number, at: string, logger: Logger, eventId: string): Promise<DueOutcome> {
  try {
    await deps.events.recordAttempt(key, claimedUntil, { at, error: 'not-configured', durationMs: 0 }, { status: 'NOT_CONFIGURED' });
  } catch (error) {
    if (!(error instanceof StoreConflictError)) throw error;
    logger.warn('webhook attempt outlived its claim', { eventId });
  }
  return 'not-configured';
}

/** Records an attempt's result: delivered, due again after the next delay, or FAILED after the last. */
async function record(deps: DispatchDeps, key: ItemKey, event: StoredEvent, claimedUntil: number, result: AttemptResult, at: string, logger: Logger): Promise<DueOutcome> {
  const { attempt, next, outcome } = settleAttempt(deps, event.failures, result, at);
  logger.info('webhook attempt', { eventId: event.id, type: event.type, merchantRef: event.merchantRef, ok: result.ok, status: result.status, error: result.error, attempt: event.attempts.length + 1, next });
  await storeAttempt(deps, key, claimedUntil, event.attempts, attempt, next, () => logger.warn('webhook attempt outlived its claim', { eventId: event.id }));
  metrics.count(METRIC.webhookDeliveries, { outcome: outcome === 'retry' ? 'retrying' : outcome });
  return outcome;
}

/** What one send (a webhook POST, a network confirmation) came to. */
export interface AttemptResult {
  ok: boolean;
  status?: number;
  error?: string;
  durationMs: number;
}

/**
 * The attempt as recorded and what follows it (webhooks and network confirmations alike):
 * delivered, due again after the next backoff delay, or FAILED after the last.
 */
export function settleAttempt(deps: DispatchDeps, failures: number, result: AttemptResult, at: string) {
  const attempt: DeliveryAttempt = { at, ...(result.status !== undefined ? { status: result.status } : {}), ...(result.error ? { error: result.error } : {}), durationMs: result.durationMs };
  const delay = deps.settings.retryDelaysMs[failures];
  const next = result.ok ? ({ status: 'DELIVERED' } as const) : delay === undefined ? ({ status: 'FAILED' } as const) : { dueAt: deps.now() + delay };
  const outcome = result.ok ? 'delivered' : 'status' in next ? 'failed' : 'retry';
  return { attempt, next, outcome } as const;
}

/**
 * Stores a claimed item's attempt and next state, then trims its history. When the claim ran
 * out (a very slow send) and another worker took over, or a redelivery superseded it, their
 * record stands: this attempt only joins the history, and `outlived` is told.
 */
export async function storeAttempt(
  deps: DispatchDeps,
  key: ItemKey,
  claimedUntil: number,
  previous: readonly DeliveryAttempt[],
  attempt: DeliveryAttempt,
  next: ReturnType<typeof settleAttempt>['next'],
  outlived: () => void,
): Promise<void> {
  try {
    await deps.events.recordAttempt(key, claimedUntil, attempt, next);
  } catch (error) {
    if (!(error instanceof StoreConflictError)) throw error;
    outlived();
    await deps.events.appendAttempt(key, attempt);
  }
  await deps.events.trimAttempts(key, [...previous, attempt]).catch(() => undefined);
}

/** Everything due now, a bounded batch, a few at a time (the scheduled sweep and the local loop). */
export async function sweep(deps: DispatchDeps, logger: Logger, options: { perShard: number; concurrency: number; stopAt: number }): Promise<number> {
  const keys = await deps.events.dueKeys(deps.now(), options.perShard);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < keys.length && deps.now() < options.stopAt) {
      const key = keys[next++]!;
      try {
        await processDue(deps, key, logger);
        done++;
      } catch (error) {
        logger.warn('due item not processed; it stays due', { pk: key.pk, sk: key.sk, error });
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  return done;
}
