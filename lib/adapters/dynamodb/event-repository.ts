import { StoreConflictError } from '../../core/ports/store-conflict.js';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { EventType, OutboxEvent } from '../../core/events/payment-event.js';
import type { OutboxConfirmation } from '../../core/network/confirmation.js';
import type { OutboxRecovery } from '../../core/payments/recovery-entry.js';
import type { OutboxEntry } from '../../core/ports/outbox.js';
import type {
  DeliveryAttempt,
  DeliveryStatus,
  DueItem,
  DueRef,
  MerchantEventStore,
  NextAttempt,
  OutboxStore,
  StoredEvent,
} from '../../core/ports/outbox-store.js';
import { confirmationKey, dueItemOf, EVENT_SK_PREFIX, recoveryKey } from './due-items.js';
import { dynamo } from './dynamo.js';
import { ALL_DUE_SHARDS, DUE_INDEX, dueShard } from './outbox.js';

export type { DeliveryAttempt, DeliveryStatus, StoredEvent };
export type ItemKey = DueRef;

/** Events are kept for this long, delivered or not (then TTL removes them). */
const RETENTION_SECONDS = 30 * 24 * 3600;
/** Attempts kept per event (the oldest are dropped). */
const MAX_ATTEMPTS_KEPT = 30;

export const eventKey = (merchantRef: string, eventId: string): ItemKey => ({ pk: `EVENTS#${merchantRef}`, sk: `${EVENT_SK_PREFIX}${eventId}` });

/**
 * The outbox side of the orders table: draining payment outboxes into delivery items (events
 * and network confirmations), claiming due deliveries, recording attempts, listing a merchant's
 * events. Every change is a single conditional write; the `due` index only tells the sweeper
 * where to look.
 */
export class EventRepository implements OutboxStore, MerchantEventStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  /** Items due by `now`, from every index shard (eventually consistent: a hint only). */
  async due(now: number, perShard: number): Promise<DueItem[]> {
    const pages = await Promise.all(
      ALL_DUE_SHARDS.map((shard) =>
        dynamo(() =>
          this.client.send(
            new QueryCommand({
              TableName: this.table,
              IndexName: DUE_INDEX,
              KeyConditionExpression: 'dueShard = :shard AND dueAt <= :now',
              ExpressionAttributeValues: { ':shard': shard, ':now': now },
              Limit: perShard,
            }),
          ),
        ),
      ),
    );
    return pages.flatMap((page) => (page.Items ?? []).map((item) => dueItemOf(item.pk as string, item.sk as string)));
  }

  /** A payment item's outbox alone (the item itself may be large: captures, refunds). */
  async outboxOf(key: ItemKey): Promise<OutboxEntry[]> {
    const { Item } = await dynamo(() =>
      this.client.send(new GetCommand({ TableName: this.table, Key: key, ConsistentRead: true, ProjectionExpression: 'outbox' })),
    );
    return (Item?.outbox as OutboxEntry[] | undefined) ?? [];
  }

  /** Stores an event once, due now (a second drain of the same outbox finds it and moves on). */
  putEvent(event: OutboxEvent, now: number): Promise<DueRef> {
    return this.putDelivery(eventKey(event.merchantRef, event.id), { kind: 'EVENT', ...event }, now);
  }

  /** Stores a network confirmation once, due now, beside the merchant's events. */
  putConfirmation(confirmation: OutboxConfirmation, now: number): Promise<DueRef> {
    return this.putDelivery(confirmationKey(confirmation.merchantRef, confirmation.id), { ...confirmation }, now);
  }

  /** Stores a processor recovery once, due now (lib/core/payments/recovery-entry.ts). */
  putRecovery(recovery: OutboxRecovery, now: number): Promise<DueRef> {
    return this.putDelivery(recoveryKey(recovery.merchantRef, recovery.id), { ...recovery }, now);
  }

  private async putDelivery(key: DueRef, fields: Record<string, unknown>, now: number): Promise<DueRef> {
    const item = {
      ...key,
      ...fields,
      status: 'PENDING',
      attempts: [],
      failures: 0,
      dueShard: dueShard(key.pk),
      dueAt: now,
      expiresAt: Math.floor(now / 1000) + RETENTION_SECONDS,
    };
    try {
      await dynamo(() => this.client.send(new PutCommand({ TableName: this.table, Item: item, ConditionExpression: 'attribute_not_exists(pk)' })));
    } catch (error) {
      if (!(error instanceof StoreConflictError)) throw error;
    }
    return key;
  }

  /**
   * Empties an outbox of exactly the events it was seen with (else StoreConflictError: look again).
   * The list only grows by appends and is only ever removed whole, so "same length, same first
   * event" is "the same list": a length alone would also match a list that another worker
   * drained meanwhile and a later write refilled with as many events none of us stored yet.
   */
  async clearOutbox(key: ItemKey, seen: readonly Pick<OutboxEvent, 'id'>[]): Promise<void> {
    await dynamo(() =>
      this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: key,
          UpdateExpression: 'REMOVE outbox, dueShard, dueAt',
          ConditionExpression: 'size(outbox) = :count AND outbox[0].#id = :firstId',
          ExpressionAttributeNames: { '#id': 'id' },
          ExpressionAttributeValues: { ':count': seen.length, ':firstId': seen[0]?.id ?? '' },
        }),
      ),
    );
  }

  /**
   * Takes a due delivery for one attempt: moves its due time to `until`, so a worker that dies
   * mid-attempt leaves it due again then, and names the claim (`claimedUntil`) so that only
   * this attempt may record its outcome. Undefined when someone else took it or it is not due.
   */
  async claim(key: ItemKey, now: number, until: number): Promise<StoredEvent | undefined> {
    try {
      const { Attributes } = await dynamo(() =>
        this.client.send(
          new UpdateCommand({
            TableName: this.table,
            Key: key,
            UpdateExpression: 'SET dueAt = :until, claimedUntil = :until',
            ConditionExpression: '#status = :pending AND dueAt <= :now',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':pending': 'PENDING', ':now': now, ':until': until },
            ReturnValues: 'ALL_NEW',
          }),
        ),
      );
      return toEvent(Attributes!);
    } catch (error) {
      if (error instanceof StoreConflictError) return undefined;
      throw error;
    }
  }

  /**
   * Records an attempt made under the claim `claimedUntil`: then delivered, failed for good, or
   * due again. StoreConflictError when the claim is no longer ours (it ran out and another worker
   * took over, or a redelivery superseded it): then only `appendAttempt`.
   */
  async recordAttempt(key: ItemKey, claimedUntil: number, attempt: DeliveryAttempt, next: NextAttempt): Promise<void> {
    const done = 'status' in next;
    await dynamo(() =>
      this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: key,
          UpdateExpression: done
            ? 'SET attempts = list_append(attempts, :attempt), #status = :status REMOVE dueShard, dueAt, claimedUntil'
            : 'SET attempts = list_append(attempts, :attempt), dueAt = :dueAt, failures = failures + :one REMOVE claimedUntil',
          ConditionExpression: '#status = :pending AND claimedUntil = :claimed',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':attempt': [attempt],
            ':pending': 'PENDING',
            ':claimed': claimedUntil,
            ...(done ? { ':status': next.status } : { ':dueAt': next.dueAt, ':one': 1 }),
          },
        }),
      ),
    );
  }

  /** The history of an attempt whose claim was lost: it happened, but decides nothing. */
  async appendAttempt(key: ItemKey, attempt: DeliveryAttempt): Promise<void> {
    await dynamo(() =>
      this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: key,
          UpdateExpression: 'SET attempts = list_append(attempts, :attempt)',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':attempt': [attempt] },
        }),
      ),
    );
  }

  /** Keeps the attempt history short (called when it grew past the limit); never drops an attempt appended meanwhile. */
  async trimAttempts(key: ItemKey, attempts: DeliveryAttempt[]): Promise<void> {
    if (attempts.length <= MAX_ATTEMPTS_KEPT) return;
    await dynamo(() =>
      this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: key,
          UpdateExpression: 'SET attempts = :kept',
          ConditionExpression: 'size(attempts) = :seen',
          ExpressionAttributeValues: { ':kept': attempts.slice(-MAX_ATTEMPTS_KEPT), ':seen': attempts.length },
        }),
      ),
    );
  }

  /**
   * Sends an event again from the start of the schedule (any status); StoreConflictError when
   * unknown. An attempt in flight keeps the event until its claim ends — two workers never send
   * it at once — and loses the claim, so its outcome no longer settles the event: due at the
   * claim's end, the redelivery still follows.
   */
  async redeliver(merchantRef: string, eventId: string, now: number): Promise<void> {
    const key = eventKey(merchantRef, eventId);
    const names = { '#status': 'status' };
    const unclaimed = new UpdateCommand({
      TableName: this.table,
      Key: key,
      UpdateExpression: 'SET #status = :pending, dueShard = :shard, dueAt = :now, failures = :zero REMOVE claimedUntil',
      ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(claimedUntil) OR claimedUntil <= :now)',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: { ':pending': 'PENDING', ':shard': dueShard(key.pk), ':now': now, ':zero': 0 },
    });
    const inFlight = new UpdateCommand({
      TableName: this.table,
      Key: key,
      UpdateExpression: 'SET dueAt = claimedUntil, failures = :zero REMOVE claimedUntil',
      ConditionExpression: '#status = :pending AND claimedUntil > :now',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: { ':pending': 'PENDING', ':now': now, ':zero': 0 },
    });
    // Each condition fails only while the other holds (a claim taken or ended in between): try again.
    for (let round = 0; ; round++) {
      for (const command of [unclaimed, inFlight]) {
        try {
          await dynamo(() => this.client.send(command));
          return;
        } catch (error) {
          if (!(error instanceof StoreConflictError) || round === 2) throw error;
        }
      }
    }
  }

  /** A merchant's events, oldest first, after the event id `after`. */
  async list(merchantRef: string, after: string | undefined, limit: number): Promise<StoredEvent[]> {
    const { Items = [] } = await dynamo(() =>
      this.client.send(
        new QueryCommand({
          TableName: this.table,
          KeyConditionExpression: after ? 'pk = :pk AND sk > :after' : 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': `EVENTS#${merchantRef}`, ...(after ? { ':after': `EVENT#${after}` } : { ':prefix': 'EVENT#' }) },
          Limit: limit,
          ConsistentRead: true,
        }),
      ),
    );
    return Items.map(toEvent);
  }
}

export function toEvent(item: Record<string, unknown>): StoredEvent {
  return {
    id: item.id as string,
    type: item.type as EventType,
    createdAt: item.createdAt as string,
    merchantRef: item.merchantRef as string,
    body: item.body as string,
    status: item.status as DeliveryStatus,
    attempts: (item.attempts as DeliveryAttempt[] | undefined) ?? [],
    failures: (item.failures as number | undefined) ?? 0,
    ...(typeof item.dueAt === 'number' ? { dueAt: item.dueAt } : {}),
  };
}
