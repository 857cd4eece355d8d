import { StoreConflictError } from '../../core/ports/store-conflict.js';
import { GetCommand, PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { OutboxConfirmation } from '../../core/network/confirmation.js';
import { dynamo, epochSeconds } from './dynamo.js';
import { toEvent, type ItemKey, type StoredEvent } from './event-repository.js';
import { dueShard } from './outbox.js';

/** Kept this long, confirmed or not (then TTL removes them): the retry schedule is ~26 h. */
const RETENTION_SECONDS = 30 * 24 * 3600;

export const CONFIRMATION_SK_PREFIX = 'CONFIRMATION#';

export const confirmationKey = (merchantRef: string, id: string): ItemKey => ({ pk: `CONFIRMATIONS#${merchantRef}`, sk: `${CONFIRMATION_SK_PREFIX}${id}` });

/**
 * Network confirmations drained from payment outboxes, one item each, in the orders table beside
 * the merchant's events. They carry the same delivery bookkeeping as an event item (status,
 * dueShard/dueAt, claimedUntil, attempts, failures), so the event repository's claim and
 * record writes serve both; only storing and reading them is here.
 */
export class ConfirmationRepository {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  /** Stores a confirmation once, due now (a second drain of the same outbox finds it and moves on). */
  async put(entry: OutboxConfirmation, now: number): Promise<void> {
    const key = confirmationKey(entry.merchantRef, entry.id);
    const item = {
      ...key,
      ...entry,
      status: 'PENDING',
      attempts: [],
      failures: 0,
      dueShard: dueShard(key.pk),
      dueAt: now,
      expiresAt: epochSeconds(now) + RETENTION_SECONDS,
    };
    try {
      await dynamo(() => this.client.send(new PutCommand({ TableName: this.table, Item: item, ConditionExpression: 'attribute_not_exists(pk)' })));
    } catch (error) {
      if (!(error instanceof StoreConflictError)) throw error;
    }
  }

  /** One confirmation with its delivery history (operators, tests). */
  async get(merchantRef: string, id: string): Promise<StoredEvent | undefined> {
    const { Item } = await dynamo(() => this.client.send(new GetCommand({ TableName: this.table, Key: confirmationKey(merchantRef, id), ConsistentRead: true })));
    return Item ? toEvent(Item) : undefined;
  }

  /** A merchant's confirmations (at most `limit`), for operators and tests. */
  async list(merchantRef: string, limit = 100): Promise<StoredEvent[]> {
    const { Items = [] } = await dynamo(() =>
      this.client.send(new QueryCommand({ TableName: this.table, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': `CONFIRMATIONS#${merchantRef}` }, Limit: limit, ConsistentRead: true })),
    );
    return Items.map(toEvent);
  }
}
