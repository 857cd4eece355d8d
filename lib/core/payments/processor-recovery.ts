import type { Order } from '../domain/order.js';
import type { Payment } from '../domain/payment.js';
import type { LifecycleDeps } from '../operations/deps.js';
import { settleAcknowledged } from '../operations/settle-operation.js';
import { claimDue, settleAttempt, storeAttempt, type Deliverer, type DueOutcome, type OutboxWorkerDeps } from '../outbox/worker.js';
import { recoverWithTimeout } from '../ports/authorizer.js';
import type { Logger } from '../ports/logger.js';
import type { DueRef, OutboxStore } from '../ports/outbox-store.js';
import { settleParkedAuthorization } from './processor-reports.js';
import type { FinalWriteDeps } from './final-write.js';
import type { OutboxRecovery, RecoveryTarget } from './recovery-entry.js';

export { isOutboxRecovery, recoveryEntry, type OutboxRecovery } from './recovery-entry.js';

/**
 * The outbox worker's recovery deliverer (recovery-entry.ts says why): asks the processor about a
 * pending authorization or operation, on the webhooks' schedule, until it is settled.
 */

/** What asking the processor about a pending thing needs: the lifecycle's stores and acquirers, and the final write's. */
export type RecoveryDeps = Pick<LifecycleDeps, 'config' | 'orders' | 'operations' | 'authorizers' | 'settings' | 'now' | 'represent'> & FinalWriteDeps;

/** The recovery deliverer; `deps` is built on the first delivery (the worker loads no processor before it has one to ask). */
export function processorRecoveryDeliverer(deps: () => Promise<RecoveryDeps>): Deliverer {
  return {
    keep: (store: OutboxStore, entry, now) => store.putRecovery(entry as OutboxRecovery, now),
    deliver: async (worker, ref, logger) => deliver(worker, await deps(), ref, logger),
  };
}

async function deliver(worker: OutboxWorkerDeps, deps: RecoveryDeps, ref: DueRef, logger: Logger): Promise<DueOutcome> {
  const claimed = await claimDue(worker, ref);
  if (!claimed) return 'skipped';
  const { item, claimedUntil, at } = claimed;
  const target = JSON.parse(item.body) as RecoveryTarget;
  const started = deps.now();
  let settled = false;
  let error: string | undefined;
  try {
    settled = await settlePending(deps, target, logger);
  } catch (caught) {
    error = caught instanceof Error ? caught.name : 'error';
  }
  const { attempt, next, outcome } = settleAttempt(worker, item.failures, { ok: settled, ...(error ? { error } : {}), durationMs: deps.now() - started }, at);
  const log = { paymentRef: target.paymentRef, operationRef: target.operationRef, settled, error, attempt: item.attempts.length + 1, next };
  if (outcome === 'failed') logger.error('pending processor operation still undecided after the last recovery attempt', log);
  else logger.info('processor asked about a pending operation', log);
  await storeAttempt(worker, ref, claimedUntil, item.attempts, attempt, next, () =>
    logger.warn('processor recovery attempt outlived its claim', { paymentRef: target.paymentRef }),
  );
  return outcome;
}

/** Whether the pending thing is settled now (or was already, or is gone): nothing left to ask. */
async function settlePending(deps: RecoveryDeps, target: RecoveryTarget, logger: Logger): Promise<boolean> {
  const found = await deps.orders.get(target.orderRef);
  const payment = found?.payments.find((candidate) => candidate.paymentRef === target.paymentRef);
  if (!found || !payment) return true;
  if (target.operationRef) {
    if (payment.operations?.[target.operationRef]?.state !== 'PENDING') return true;
    const acquirer = await deps.authorizers.for(await deps.config.getMerchant(found.order.merchantRef));
    const after = await settleAcknowledged(deps, found.order, acquirer, payment, target.operationRef, { logger });
    return after.operations?.[target.operationRef]?.state !== 'PENDING';
  }
  return settleAuthorization(deps, found.order, payment, logger);
}

async function settleAuthorization(deps: RecoveryDeps, order: Order, payment: Payment, logger: Logger): Promise<boolean> {
  if (payment.state !== 'PROCESSING') return true;
  const acquirer = await deps.authorizers.for(await deps.config.getMerchant(order.merchantRef));
  const answer = await recoverWithTimeout(
    acquirer,
    { operation: 'AUTHORIZE', reference: payment.paymentRef, ...(payment.processorReference ? { acknowledged: payment.processorReference } : {}) },
    deps.settings.authorizerTimeoutMs,
  );
  if (answer.kind !== 'known' || answer.outcome.kind === 'pending') return false;
  return settleParkedAuthorization(deps, order, payment, answer.outcome, logger);
}
