import type { Logger } from '../ports/logger.js';
import { METRIC, metrics } from '../ports/metrics.js';
import type { ConfirmationResult, NetworkClient, NetworkConfirmation } from '../ports/network-client.js';
import type { DueRef, OutboxStore } from '../ports/outbox-store.js';
import { claimDue, settleAttempt, storeAttempt, type Deliverer, type DueOutcome, type OutboxWorkerDeps } from '../outbox/worker.js';
import type { OutboxConfirmation } from './confirmation.js';

/**
 * The network-confirmation deliverer (Mastercard, SPEC 4.3), exactly like a webhook attempt:
 * claimed first, so two workers never send it at once; then sent to the client of the network
 * that signed the checkout (one per network name: the sandbox's, Mastercard's); then recorded —
 * confirmed, due again after the next backoff delay (the webhooks' schedule, ~26 h), or FAILED
 * for good after the last (metric NetworkConfirmations{outcome=failed}). A retry sends the same
 * confirmation (same id, same body): the network sees one outcome.
 */
export function confirmationDeliverer(clients: Readonly<Record<string, NetworkClient>>): Deliverer {
  return {
    keep: (store: OutboxStore, entry, now) => store.putConfirmation(entry as OutboxConfirmation, now),
    deliver: (worker, ref, logger) => deliver(worker, clients, ref, logger),
  };
}

async function deliver(worker: OutboxWorkerDeps, clients: Readonly<Record<string, NetworkClient>>, ref: DueRef, logger: Logger): Promise<DueOutcome> {
  const claimed = await claimDue(worker, ref);
  if (!claimed) return 'skipped';
  const { item: stored, claimedUntil, at } = claimed;
  const confirmation = JSON.parse(stored.body) as NetworkConfirmation;
  const client = clients[confirmation.network];
  const result = client ? await confirmSafely(client, confirmation) : { ok: false, error: 'no-network-client', durationMs: 0 };
  const { attempt, next, outcome } = settleAttempt(worker, stored.failures, result, at);
  const log = {
    confirmationId: confirmation.id,
    network: confirmation.network,
    outcome: confirmation.outcome,
    paymentRef: confirmation.paymentRef,
    ok: result.ok,
    status: result.status,
    error: result.error,
    attempt: stored.attempts.length + 1,
    next,
  };
  if (outcome === 'failed') logger.error('network confirmation failed for good', log);
  else logger.info('network confirmation attempt', log);
  await storeAttempt(worker, ref, claimedUntil, stored.attempts, attempt, next, () =>
    logger.warn('network confirmation attempt outlived its claim', { confirmationId: confirmation.id }),
  );
  metrics.count(METRIC.networkConfirmations, { outcome: outcome === 'retry' ? 'retrying' : outcome });
  return outcome;
}

/** Adapters answer failures as results; anything they throw anyway is one failed attempt. */
async function confirmSafely(client: NetworkClient, confirmation: NetworkConfirmation): Promise<ConfirmationResult> {
  try {
    return await client.confirm(confirmation);
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.name : 'error', durationMs: 0 };
  }
}
