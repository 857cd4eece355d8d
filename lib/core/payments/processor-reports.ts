import { randomUUID } from 'node:crypto';
import { failureOf } from '../domain/decline.js';
import type { Order } from '../domain/order.js';
import { AUTHORISED_STATES, stateAfterOperations, type Payment, type PaymentOperation } from '../domain/payment.js';
import { PaymentStateConflictError } from '../errors.js';
import { paymentEvent, type EventType } from '../events/payment-event.js';
import { recordFailure, recordOutcome, type SettleDeps } from '../operations/settle-operation.js';
import type { Logger } from '../ports/logger.js';
import type { OrderStore } from '../ports/order-store.js';
import type { ProcessorInbox, ProcessorReport, ProcessorReportSource, ReferenceLocation, ReportEffect } from '../ports/processor-inbox.js';
import { StoreConflictError } from '../ports/store-conflict.js';
import { writeFinal, type FinalWriteDeps } from './final-write.js';
import { outcomePatch } from './settle.js';

export type ProcessorReportDeps = FinalWriteDeps &
  SettleDeps & {
    inbox: ProcessorInbox;
    orders: Pick<OrderStore, 'get'>;
  };

export type ReportResult = 'applied' | 'already-applied' | 'waiting';

/**
 * SPEC 4.16: a processor's verified reports (Adyen's notifications) settle what it decided
 * later. Each report is stored once in the merchant's inbox (a delivery of it again is
 * recognised by its key and applied nothing twice), then applied to the payment its reference
 * lives in — or left waiting while that reference is not known yet (a report ahead of the
 * operation it is about), or while a request holds the payment's lease (that request asks the
 * processor again before it answers, and finds the report then). Applying is the ordinary
 * conditional writes of a settlement, with their events: webhooks follow as for any settlement.
 */
export async function receiveProcessorReports(
  deps: ProcessorReportDeps,
  merchantRef: string,
  reports: readonly ProcessorReport[],
  logger: Logger,
): Promise<ReportResult[]> {
  const results: ReportResult[] = [];
  for (const report of reports) {
    const kept = await deps.inbox.keep(merchantRef, report, deps.now());
    if (kept === 'applied') {
      results.push('already-applied');
      continue;
    }
    const location = report.effect.kind === 'none' ? undefined : await deps.inbox.locate(merchantRef, report.reference);
    const applied = report.effect.kind === 'none' || (location !== undefined && (await apply(deps, merchantRef, location, report, logger)));
    logger.info('processor report received', { key: report.key, reference: report.reference, effect: report.effect.kind, applied, delivery: kept });
    if (applied) await deps.inbox.markApplied(merchantRef, report, deps.now());
    results.push(applied ? 'applied' : 'waiting');
  }
  return results;
}

/**
 * One delivery from a processor (POST /processors/adyen/notifications): read and verified whole
 * first — a delivery with one item that fails verification changes nothing (the source throws) —
 * then each merchant's reports received. How many reports it carried.
 */
export async function acceptProcessorDelivery(deps: ProcessorReportDeps & { source: ProcessorReportSource }, body: unknown, logger: Logger): Promise<number> {
  const verified = await deps.source.read(body);
  let received = 0;
  for (const { merchantRef, reports } of verified) {
    await receiveProcessorReports(deps, merchantRef, reports, logger);
    received += reports.length;
  }
  return received;
}

/** Whether the report is applied (or had nothing left to change); false: it waits. */
async function apply(deps: ProcessorReportDeps, merchantRef: string, location: ReferenceLocation, report: ProcessorReport, logger: Logger): Promise<boolean> {
  const found = await deps.orders.get(location.orderRef);
  const payment = found?.payments.find((candidate) => candidate.paymentRef === location.paymentRef);
  if (!found || !payment || found.order.merchantRef !== merchantRef) {
    logger.error('processor report names a payment this merchant does not have', { reference: report.reference, orderRef: location.orderRef });
    return false;
  }
  const effect = report.effect;
  switch (effect.kind) {
    case 'authorization':
      return settleParkedAuthorization(deps, found.order, payment, effect.outcome, logger);
    case 'operation':
      return settleOperation(deps, found.order, payment, report.reference, effect.outcome, logger);
    case 'operation-failed-later':
      return revertOperation(deps, found.order, payment, report.reference, effect, logger);
    case 'authorization-cancelled':
      return voidAuthorization(deps, found.order, payment, effect, logger);
    case 'none':
      return true;
  }
}

/**
 * An authorization the processor decided: recorded on a payment whose lease nobody holds any
 * more (parked after a pending answer or a lost one), as its holder would have — its masked card,
 * and its credential, so that the same request coming back gets this outcome. A live lease is
 * left alone (its holder asks the processor before answering); a settled payment needs nothing.
 */
export async function settleParkedAuthorization(
  deps: FinalWriteDeps,
  order: Order,
  payment: Payment,
  outcome: Extract<ReportEffect, { kind: 'authorization' }>['outcome'],
  logger: Logger,
): Promise<boolean> {
  if (payment.state !== 'PROCESSING') {
    const agrees = (outcome.kind === 'approved') === AUTHORISED_STATES.has(payment.state);
    if (payment.state === 'STARTED' || payment.state === 'AWAIT_3DS') {
      // Given back as never sent, yet the processor decided it: an operator must look.
      logger.error('processor reports an authorization the service holds as not sent', { paymentRef: payment.paymentRef, outcome: outcome.kind });
      return false;
    }
    if (!agrees)
      logger.error('processor report disagrees with the settled payment', { paymentRef: payment.paymentRef, state: payment.state, outcome: outcome.kind });
    return true;
  }
  if ((payment.leaseUntil ?? 0) > deps.now()) return false;
  const patch = { ...outcomePatch(outcome, order, payment.paymentRef, deps.now()), ...(payment.leaseMasked ? { paymentMethod: payment.leaseMasked } : {}) };
  try {
    const settled = await writeFinal(deps, order, payment, payment.leaseId!, patch, payment.leaseCredential);
    logger.info('authorization settled by the processor’s report', { paymentRef: payment.paymentRef, state: settled.state });
    return true;
  } catch (error) {
    if (!(error instanceof PaymentStateConflictError)) throw error;
    // Settled or taken over meanwhile: settled needs nothing; a new holder asks the processor itself.
    const now = await deps.payments.get(payment.orderRef, payment.paymentRef);
    return now !== undefined && now.state !== 'PROCESSING';
  }
}

/** A capture, reversal or refund the processor decided: recorded while PENDING; already settled needs nothing. */
async function settleOperation(
  deps: ProcessorReportDeps,
  order: Order,
  payment: Payment,
  ref: string,
  outcome: Extract<ReportEffect, { kind: 'operation' }>['outcome'],
  logger: Logger,
): Promise<boolean> {
  const operation = payment.operations?.[ref];
  if (!operation) return false;
  if (operation.state === 'PENDING') {
    const after = await recordOutcome(deps, order, payment, ref, outcome);
    logger.info('operation settled by the processor’s report', { paymentRef: payment.paymentRef, operationRef: ref, state: after.operations?.[ref]?.state });
    return after.operations?.[ref]?.state !== 'PENDING';
  }
  if ((operation.state === 'SUCCEEDED') !== (outcome.kind === 'approved')) {
    logger.error('processor report disagrees with the settled operation', { paymentRef: payment.paymentRef, operationRef: ref, state: operation.state });
  }
  return true;
}

/**
 * A capture or refund that failed after the processor had accepted it (Adyen's CAPTURE_FAILED,
 * REFUND_FAILED): a succeeded one is undone — FAILED with the processor's code, its amount
 * capturable (refundable) again, the totals and state as they now are, and the event of that
 * state; a pending one simply fails.
 */
async function revertOperation(
  deps: ProcessorReportDeps,
  order: Order,
  seen: Payment,
  ref: string,
  effect: Extract<ReportEffect, { kind: 'operation-failed-later' }>,
  logger: Logger,
): Promise<boolean> {
  let payment = seen;
  for (let attempt = 0; attempt < 5; attempt++) {
    const operation = payment.operations?.[ref];
    if (!operation) return false;
    if (operation.state === 'FAILED') return true;
    if (operation.state === 'PENDING') {
      await recordFailure(deps, payment, ref, failureOf(effect.decline));
      return true;
    }
    if (operation.kind === 'REVERSAL') return true;
    const now = deps.now();
    const totals = revertedTotals(payment, operation);
    const settledAt = new Date(now).toISOString();
    const after: Payment = {
      ...payment,
      ...totals,
      updatedAt: settledAt,
      operations: { ...payment.operations, [ref]: { ...operation, state: 'FAILED', failure: failureOf(effect.decline), settledAt } },
    };
    const event = paymentEvent(stateEventType(after), order, deps.represent(after), now);
    try {
      await deps.operations.revert(payment, ref, totals, failureOf(effect.decline), settledAt, [event], now);
      logger.warn('operation failed after the processor had accepted it', { paymentRef: payment.paymentRef, operationRef: ref, kind: operation.kind });
      return true;
    } catch (error) {
      if (!(error instanceof StoreConflictError)) throw error;
      payment = (await deps.payments.get(payment.orderRef, payment.paymentRef)) ?? payment;
    }
  }
  return false;
}

function revertedTotals(payment: Payment, operation: PaymentOperation) {
  const capture = operation.kind === 'CAPTURE';
  const capturedAmount = (payment.capturedAmount ?? 0) - (capture ? operation.amount : 0);
  const refundedAmount = (payment.refundedAmount ?? 0) - (capture ? 0 : operation.amount);
  const capturable = (payment.capturable ?? 0) + (capture ? operation.amount : 0);
  // A failed capture takes back what it made refundable; a failed refund gives it back.
  const refundable = (payment.refundable ?? 0) + (capture ? -operation.amount : operation.amount);
  const state = stateAfterOperations({ amount: payment.amount, capturedAmount, refundedAmount }, false);
  return { state, capturedAmount, refundedAmount, capturable, refundable };
}

/** The event that announces the state a payment is now in (an undo has no event of its own in 4.15's catalogue). */
function stateEventType(after: Payment): EventType {
  switch (after.state) {
    case 'CAPTURED':
      return 'payment.captured';
    case 'PARTIALLY_CAPTURED':
      return 'payment.partially_captured';
    case 'REFUNDED':
      return 'payment.refunded';
    case 'PARTIALLY_REFUNDED':
      return 'payment.partially_refunded';
    default:
      return 'payment.authorised';
  }
}

/**
 * The processor voided an authorization by itself (Adyen's TECHNICAL_CANCEL): an authorization
 * with nothing captured is REVERSED, recorded as a reversal under `operationRef` (announced as
 * payment.reversed); one still parked at the processor is FAILED. Anything else (captured
 * meanwhile, already reversed or failed) is left as it is, for an operator if it disagrees.
 */
async function voidAuthorization(
  deps: ProcessorReportDeps,
  order: Order,
  payment: Payment,
  effect: Extract<ReportEffect, { kind: 'authorization-cancelled' }>,
  logger: Logger,
): Promise<boolean> {
  if (payment.state === 'PROCESSING') return settleParkedAuthorization(deps, order, payment, { kind: 'declined', decline: effect.decline }, logger);
  if (payment.operations?.[effect.operationRef]) {
    const settled = await settleOperation(deps, order, payment, effect.operationRef, approvedVoid(effect.operationRef), logger);
    return settled;
  }
  if (payment.state !== 'AUTHORISED' || (payment.capturable ?? 0) !== payment.amount.value) {
    if (payment.state !== 'REVERSED' && payment.state !== 'FAILED')
      logger.error('processor voided an authorization the service holds as in use', { paymentRef: payment.paymentRef, state: payment.state });
    return true;
  }
  const at = new Date(deps.now()).toISOString();
  const reversal: PaymentOperation = { kind: 'REVERSAL', amount: payment.amount.value, state: 'PENDING', at, attemptId: randomUUID(), sentBy: 'processor' };
  let reserved: Payment;
  try {
    reserved = await deps.operations.reserve(payment, effect.operationRef, reversal);
  } catch (error) {
    if (!(error instanceof StoreConflictError)) throw error;
    return false; // changed meanwhile: the next delivery (or a retry) looks again
  }
  await recordOutcome(deps, order, reserved, effect.operationRef, approvedVoid(effect.operationRef));
  logger.warn('authorization voided by the processor', { paymentRef: payment.paymentRef });
  return true;
}

const approvedVoid = (operationRef: string) => ({ kind: 'approved', processorReference: operationRef, resultCode: 'CANCELLED' }) as const;
