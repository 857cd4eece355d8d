import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { OperationClaim, RevertedTotals } from '../../core/ports/payment-operations-store.js';
import {
  NOT_PERFORMED,
  OPERATION_STARTS_FROM,
  type OperationKind,
  type Payment,
  type PaymentFailure,
  type PaymentOperation,
  type PaymentState,
} from '../../core/domain/payment.js';
import { DependencyUnavailableError } from '../../core/errors.js';
import { dynamo, oldItem } from './dynamo.js';
import { orderPk, paymentSk, stripItem } from './order-repository.js';
import { appendToOutbox, MAX_UNDRAINED_EVENTS, type OutboxEntry } from './outbox.js';
import { StoreConflictError } from '../../core/ports/store-conflict.js';
import type { PaymentOperationsStore, SettledTotals } from '../../core/ports/payment-operations-store.js';

/** Where each operation may start and which total its reservation draws on. */
const RESERVATION: Record<OperationKind, { from: readonly PaymentState[]; condition: string; update: string }> = {
  CAPTURE: { from: OPERATION_STARTS_FROM.CAPTURE, condition: 'capturable >= :amount', update: 'capturable = capturable - :amount' },
  REFUND: { from: OPERATION_STARTS_FROM.REFUND, condition: 'refundable >= :amount', update: 'refundable = refundable - :amount' },
  // Only while nothing is captured or on its way: everything still capturable.
  REVERSAL: { from: OPERATION_STARTS_FROM.REVERSAL, condition: 'capturable = #amount.#value', update: 'capturable = :zero' },
};

/**
 * Captures, reversals and refunds on the payment item (SPEC 4.11–4.13), each a single
 * conditional UpdateItem:
 * - `reserve` starts an operation: the condition tests the state and the remaining total and
 *   the update decrements it, so no interleaving of concurrent requests can over-capture or
 *   over-refund (no read-then-write); it also needs room in the outbox (MAX_UNDRAINED_EVENTS),
 *   so the approval's write never fails on the item's size after the acquirer acted;
 * - `claim` marks the operation as being sent to the acquirer, before the call: only the one
 *   request whose claim lands calls (lib/core/operations/modify-payment.ts);
 * - `succeed` records the acquirer's approval, the new totals and state, and the events — all
 *   conditioned on the version read, so nothing written meanwhile is overwritten;
 * - `fail` records a refusal and gives the reservation back.
 * `claim` and `fail` are conditioned on the generation of the operation they saw (its
 * reservation and its claim), so a late write meant for an earlier one never lands on a later.
 */
export class PaymentOperationsRepository implements PaymentOperationsStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  /**
   * Reserves `operation`'s amount under `ref`: a new operation, or (`again`) one the service did
   * not perform (FAILED NOT_PERFORMED, as seen) that its own request brought back.
   */
  async reserve(payment: Pick<Payment, 'orderRef' | 'paymentRef'>, ref: string, operation: PaymentOperation, again?: PaymentOperation): Promise<Payment> {
    const rule = RESERVATION[operation.kind];
    const previous: { condition: string; names: Record<string, string>; values: Record<string, string> } = again
      ? {
          condition: `operations.#ref.#state = :failed AND operations.#ref.failure.#code = :notPerformed AND ${sameGeneration(again).condition}`,
          names: { '#code': 'code' },
          values: { ':failed': 'FAILED', ':notPerformed': NOT_PERFORMED, ...sameGeneration(again).values },
        }
      : { condition: 'attribute_not_exists(operations.#ref)', names: {}, values: {} };
    try {
      const { Attributes } = await dynamo(() =>
        this.client.send(
          new UpdateCommand({
            TableName: this.table,
            Key: key(payment),
            UpdateExpression: `SET ${rule.update}, operations.#ref = :operation, version = version + :one, updatedAt = :at`,
            ConditionExpression: `#state IN (${rule.from.map((_, i) => `:from${i}`).join(', ')}) AND ${rule.condition} AND ${previous.condition} AND (attribute_not_exists(outbox) OR size(outbox) < :outboxRoom)`,
            ExpressionAttributeNames: {
              '#state': 'state',
              '#ref': ref,
              ...(operation.kind === 'REVERSAL' ? { '#amount': 'amount', '#value': 'value' } : {}),
              ...previous.names,
            },
            ExpressionAttributeValues: {
              ...Object.fromEntries(rule.from.map((state, i) => [`:from${i}`, state])),
              ...(operation.kind === 'REVERSAL' ? { ':zero': 0 } : { ':amount': operation.amount }),
              ':operation': operation,
              ':one': 1,
              ':at': operation.at,
              ':outboxRoom': MAX_UNDRAINED_EVENTS,
              ...previous.values,
            },
            ReturnValues: 'ALL_NEW',
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        ),
      );
      return stripItem<Payment>(Attributes!);
    } catch (error) {
      if (error instanceof StoreConflictError && (await this.undrainedEvents(payment, error)) >= MAX_UNDRAINED_EVENTS) {
        throw new DependencyUnavailableError('Events of this payment are still being delivered; retry shortly.', { cause: error, retryAfterMs: 5000 });
      }
      throw error;
    }
  }

  /** How many events wait in the item's outbox (from the refused write's old item, else a read). */
  private async undrainedEvents(payment: Pick<Payment, 'orderRef' | 'paymentRef'>, refusal: StoreConflictError): Promise<number> {
    const item =
      oldItem(refusal.cause) ??
      (await dynamo(() => this.client.send(new GetCommand({ TableName: this.table, Key: key(payment), ConsistentRead: true, ProjectionExpression: 'outbox' }))))
        .Item;
    return Array.isArray(item?.outbox) ? item.outbox.length : 0;
  }

  /**
   * Claims the call to the acquirer for the operation as `seen` (same reservation, same claim or
   * none): records who sends it and from when it may land. Exactly one claim per generation
   * lands; StoreConflictError otherwise (the caller re-reads: an SDK retry of a landed claim meets
   * its own `sentBy`).
   */
  async claim(seen: Payment, ref: string, send: OperationClaim): Promise<Payment> {
    const operation = seen.operations![ref]!;
    const generation = sameGeneration(operation);
    const { Attributes } = await dynamo(() =>
      this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: key(seen),
          UpdateExpression:
            'SET operations.#ref.sentBy = :sentBy, operations.#ref.sentAt = :sentAt, operations.#ref.inFlightUntil = :until, operations.#ref.attemptId = :newAttemptId, version = version + :one',
          ConditionExpression: `operations.#ref.#opState = :pending AND ${generation.condition}`,
          ExpressionAttributeNames: { '#ref': ref, '#opState': 'state' },
          ExpressionAttributeValues: {
            ':sentBy': send.sentBy,
            ':sentAt': send.sentAt,
            ':until': send.inFlightUntil,
            ':newAttemptId': send.attemptId,
            ':pending': 'PENDING',
            ':one': 1,
            ...generation.values,
          },
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      ),
    );
    return stripItem<Payment>(Attributes!);
  }

  /** The approval, written only over the version `seen` and while the operation is still pending. */
  async succeed(seen: Payment, ref: string, totals: SettledTotals, settledAt: string, events: readonly OutboxEntry[], now: number): Promise<Payment> {
    const k = key(seen);
    const outbox = appendToOutbox(k.pk, events, now);
    const { Attributes } = await dynamo(() =>
      this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: k,
          UpdateExpression: `${[
            'SET operations.#ref.#opState = :succeeded, operations.#ref.settledAt = :settledAt, #state = :state',
            'capturedAmount = :captured, refundedAmount = :refunded, refundable = :refundable',
            'version = version + :one, updatedAt = :settledAt',
            ...outbox.set,
          ].join(', ')} REMOVE operations.#ref.inFlightUntil`,
          ConditionExpression: 'version = :version AND operations.#ref.#opState = :pending',
          ExpressionAttributeNames: { '#ref': ref, '#opState': 'state', '#state': 'state' },
          ExpressionAttributeValues: {
            ':succeeded': 'SUCCEEDED',
            ':pending': 'PENDING',
            ':settledAt': settledAt,
            ':state': totals.state,
            ':captured': totals.capturedAmount,
            ':refunded': totals.refundedAmount,
            ':refundable': totals.refundable,
            ':version': seen.version,
            ':one': 1,
            ...outbox.values,
          },
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      ),
    );
    return stripItem<Payment>(Attributes!);
  }

  /**
   * The processor acknowledged the operation as `operation` is (same generation): it has it and
   * decides later. Its reference for it is kept, the operation stays PENDING, and its recovery
   * (`events`) joins the outbox in the same write, so the worker asks until it is settled.
   */
  async acknowledge(
    seen: Payment,
    ref: string,
    operation: PaymentOperation,
    processorReference: string,
    events: readonly OutboxEntry[],
    now: number,
  ): Promise<Payment> {
    const generation = sameGeneration(operation);
    const k = key(seen);
    const outbox = appendToOutbox(k.pk, events, now);
    const { Attributes } = await dynamo(() =>
      this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: k,
          UpdateExpression: `SET ${['operations.#ref.processorReference = :processorReference', 'version = version + :one', ...outbox.set].join(', ')}`,
          ConditionExpression: `operations.#ref.#opState = :pending AND ${generation.condition}`,
          ExpressionAttributeNames: { '#ref': ref, '#opState': 'state' },
          ExpressionAttributeValues: { ...generation.values, ':processorReference': processorReference, ':pending': 'PENDING', ':one': 1, ...outbox.values },
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      ),
    );
    return stripItem<Payment>(Attributes!);
  }

  /**
   * A capture or refund the processor reported as failed after it had succeeded (Adyen's
   * CAPTURE_FAILED / REFUND_FAILED): FAILED, the totals and state as `totals` says, and the
   * events — only over the version `seen`, while the operation is still SUCCEEDED.
   */
  async revert(
    seen: Payment,
    ref: string,
    totals: RevertedTotals,
    failure: PaymentFailure,
    settledAt: string,
    events: readonly OutboxEntry[],
    now: number,
  ): Promise<Payment> {
    const k = key(seen);
    const outbox = appendToOutbox(k.pk, events, now);
    const { Attributes } = await dynamo(() =>
      this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: k,
          UpdateExpression: `SET ${[
            'operations.#ref.#opState = :failed, operations.#ref.failure = :failure, operations.#ref.settledAt = :settledAt, #state = :state',
            'capturedAmount = :captured, refundedAmount = :refunded, capturable = :capturable, refundable = :refundable',
            'version = version + :one, updatedAt = :settledAt',
            ...outbox.set,
          ].join(', ')}`,
          ConditionExpression: 'version = :version AND operations.#ref.#opState = :succeeded',
          ExpressionAttributeNames: { '#ref': ref, '#opState': 'state', '#state': 'state' },
          ExpressionAttributeValues: {
            ':failed': 'FAILED',
            ':succeeded': 'SUCCEEDED',
            ':failure': failure,
            ':settledAt': settledAt,
            ':state': totals.state,
            ':captured': totals.capturedAmount,
            ':refunded': totals.refundedAmount,
            ':capturable': totals.capturable,
            ':refundable': totals.refundable,
            ':version': seen.version,
            ':one': 1,
            ...outbox.values,
          },
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      ),
    );
    return stripItem<Payment>(Attributes!);
  }

  /**
   * The acquirer refused (or was certainly never reached): the operation is FAILED and its
   * reservation returns to the total it came from. A reversal restores the whole authorization.
   * Only over the generation `operation` is (as seen): never over a later reservation or claim.
   */
  async fail(
    payment: Pick<Payment, 'orderRef' | 'paymentRef'>,
    ref: string,
    operation: PaymentOperation,
    failure: PaymentFailure,
    settledAt: string,
  ): Promise<Payment> {
    const generation = sameGeneration(operation);
    const giveBack =
      operation.kind === 'CAPTURE'
        ? 'capturable = capturable + :amount'
        : operation.kind === 'REFUND'
          ? 'refundable = refundable + :amount'
          : 'capturable = #amount.#value';
    const { Attributes } = await dynamo(() =>
      this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: key(payment),
          UpdateExpression: `SET operations.#ref.#opState = :failed, operations.#ref.failure = :failure, operations.#ref.settledAt = :settledAt, ${giveBack}, version = version + :one, updatedAt = :settledAt REMOVE operations.#ref.inFlightUntil`,
          ConditionExpression: `operations.#ref.#opState = :pending AND ${generation.condition}`,
          ExpressionAttributeNames: { '#ref': ref, '#opState': 'state', ...(operation.kind === 'REVERSAL' ? { '#amount': 'amount', '#value': 'value' } : {}) },
          ExpressionAttributeValues: {
            ...generation.values,
            ':failed': 'FAILED',
            ':pending': 'PENDING',
            ':failure': failure,
            ':settledAt': settledAt,
            ...(operation.kind === 'REVERSAL' ? {} : { ':amount': operation.amount }),
            ':one': 1,
          },
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      ),
    );
    return stripItem<Payment>(Attributes!);
  }
}

const key = (payment: Pick<Payment, 'orderRef' | 'paymentRef'>) => ({ pk: orderPk(payment.orderRef), sk: paymentSk(payment.paymentRef) });

/**
 * The condition "the operation under #ref is still the reservation and the claim `seen` shows":
 * the same `attemptId` and the same `sentBy` (or, for each, still none).
 */
function sameGeneration(seen: PaymentOperation): { condition: string; values: Record<string, string> } {
  const attempt = seen.attemptId === undefined ? 'attribute_not_exists(operations.#ref.attemptId)' : 'operations.#ref.attemptId = :seenAttemptId';
  const sender = seen.sentBy === undefined ? 'attribute_not_exists(operations.#ref.sentBy)' : 'operations.#ref.sentBy = :seenSentBy';
  return {
    condition: `${attempt} AND ${sender}`,
    values: {
      ...(seen.attemptId === undefined ? {} : { ':seenAttemptId': seen.attemptId }),
      ...(seen.sentBy === undefined ? {} : { ':seenSentBy': seen.sentBy }),
    },
  };
}

export type { SettledTotals };
