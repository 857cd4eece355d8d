import type { Logger } from '../ports/logger.js';
import { METRIC, metrics } from '../ports/metrics.js';
import type { ConfirmationRepository } from '../../adapters/dynamodb/confirmation-repository.js';
import type { ItemKey } from '../../adapters/dynamodb/event-repository.js';
import { claimDue, settleAttempt, storeAttempt, type DispatchDeps, type DueOutcome } from '../outbox/dispatch.js';
import type { ConfirmationResult, NetworkClient, NetworkConfirmation } from '../ports/network-client.js';

/** The delivery worker's side of network confirmations (DispatchDeps.confirmations). */
export interface ConfirmationDispatch {
  repository: Pick<ConfirmationRepository, 'put'>;
  /** One client per network name (SrcCheckoutReference.network): the sandbox's, Mastercard's. */
  clients: Readonly<Record<string, NetworkClient>>;
}

/**
 * One attempt to confirm a due outcome to the network, exactly like a webhook attempt
 * (dispatch.ts `deliver`): claimed first, so two workers never send it at once; then sent;
 * then recorded — confirmed, due again after the next backoff delay (the webhooks' schedule,
 * ~26 h), or FAILED for good after the last (metric NetworkConfirmations{outcome=failed}).
 * A retry sends the same confirmation (same id, same body): the network sees one outcome.
 */
export async function deliverConfirmation(deps: DispatchDeps, key: ItemKey, logger: Logger): Promise<DueOutcome> {
  const claimed = await claimDue(deps, key);
  if (!claimed) return 'skipped';
  const { item: stored, claimedUntil, at } = claimed;
  const confirmation = JSON.parse(stored.body) as NetworkConfirmation;
  const client = deps.confirmations.clients[confirmation.network];
  const result = client ? await confirmSafely(client, confirmation) : { ok: false, error: 'no-network-client', durationMs: 0 };
  const { attempt, next, outcome } = settleAttempt(deps, stored.failures, result, at);
  const log = { confirmationId: confirmation.id, network: confirmation.network, outcome: confirmation.outcome, paymentRef: confirmation.paymentRef, ok: result.ok, status: result.status, error: result.error, attempt: stored.attempts.length + 1, next };
  if (outcome === 'failed') logger.error('network confirmation failed for good', log);
  else logger.info('network confirmation attempt', log);
  await storeAttempt(deps, key, claimedUntil, stored.attempts, attempt, next, () => logger.warn('network confirmation attempt outlived its claim', { confirmationId: confirmation.id }));
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
