import type { Logger } from '../ports/logger.js';
import { METRIC, metrics } from '../ports/metrics.js';
import type { DueRef, OutboxStore, StoredDelivery } from '../ports/outbox-store.js';
import type { OutboxEvent } from '../events/payment-event.js';
import type { WebhookSender } from '../ports/webhook-sender.js';
import { StoreConflictError } from '../ports/store-conflict.js';
import { claimDue, settleAttempt, storeAttempt, type AttemptResult, type Deliverer, type DueOutcome, type OutboxWorkerDeps } from '../outbox/worker.js';
import { signatureHeaders } from './signing.js';

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

/**
 * The webhook deliverer (SPEC 4.15): an event is claimed first (so two workers never send it at
 * once), signed with every live secret, POSTed with the sender's timeout, and recorded —
 * delivered, due again after the next backoff delay, or failed for good after the last.
 */
export function webhookDeliverer(deps: { endpoints: WebhookEndpoints; sender: WebhookSender }): Deliverer {
  return {
    keep: (store: OutboxStore, entry, now) => store.putEvent(entry as OutboxEvent, now),
    deliver: (worker, ref, logger) => deliver(worker, deps, ref, logger),
  };
}

async function deliver(
  worker: OutboxWorkerDeps,
  deps: { endpoints: WebhookEndpoints; sender: WebhookSender },
  ref: DueRef,
  logger: Logger,
): Promise<DueOutcome> {
  const claimed = await claimDue(worker, ref);
  if (!claimed) return 'skipped';
  const { item: event, now, claimedUntil, at } = claimed;
  let endpoint: WebhookEndpoint | undefined;
  let headers: Record<string, string>;
  try {
    endpoint = await deps.endpoints.endpointFor(event.merchantRef, now);
    if (!endpoint?.enabled || endpoint.secrets.length === 0) return await notConfigured(worker, ref, claimedUntil, at, logger, event.id);
    headers = { ...signatureHeaders({ id: event.id, timestamp: new Date(now), body: event.body, secrets: endpoint.secrets }) };
  } catch (error) {
    // The secrets could not be opened (KMS, DynamoDB) or do not sign: an attempt like any failed
    // one, on the same schedule, so a lasting fault ends FAILED and shows in the history.
    logger.warn('webhook secrets unavailable', { eventId: event.id, merchantRef: event.merchantRef, error });
    return record(worker, ref, event, claimedUntil, { ok: false, error: 'secrets-unavailable', durationMs: 0 }, at, logger);
  }
  const result = await deps.sender.send({ url: endpoint.url, body: event.body, headers, allowLoopback: endpoint.allowLoopback });
  return record(worker, ref, event, claimedUntil, result, at, logger);
}

/** No webhook (or disabled): recorded once, never sent. A redelivery that took the claim over wins. */
async function notConfigured(worker: OutboxWorkerDeps, ref: DueRef, claimedUntil: number, at: string, logger: Logger, eventId: string): Promise<DueOutcome> {
  try {
    await worker.store.recordAttempt(ref, claimedUntil, { at, error: 'not-configured', durationMs: 0 }, { status: 'NOT_CONFIGURED' });
  } catch (error) {
    if (!(error instanceof StoreConflictError)) throw error;
    logger.warn('webhook attempt outlived its claim', { eventId });
  }
  return 'not-configured';
}

/** Records an attempt's result: delivered, due again after the next delay, or FAILED after the last. */
async function record(
  worker: OutboxWorkerDeps,
  ref: DueRef,
  event: StoredDelivery,
  claimedUntil: number,
  result: AttemptResult,
  at: string,
  logger: Logger,
): Promise<DueOutcome> {
  const { attempt, next, outcome } = settleAttempt(worker, event.failures, result, at);
  logger.info('webhook attempt', {
    eventId: event.id,
    type: event.type,
    merchantRef: event.merchantRef,
    ok: result.ok,
    status: result.status,
    error: result.error,
    attempt: event.attempts.length + 1,
    next,
  });
  await storeAttempt(worker, ref, claimedUntil, event.attempts, attempt, next, () => logger.warn('webhook attempt outlived its claim', { eventId: event.id }));
  metrics.count(METRIC.webhookDeliveries, { outcome: outcome === 'retry' ? 'retrying' : outcome });
  return outcome;
}
