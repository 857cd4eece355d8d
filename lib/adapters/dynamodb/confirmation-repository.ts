import { GetCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { StoredDelivery } from '../../core/ports/outbox-store.js';
import { confirmationKey } from './due-items.js';
import { dynamo } from './dynamo.js';
import { toEvent } from './event-repository.js';

/**
 * Network confirmations drained from payment outboxes, one item each, in the orders table beside
 * the merchant's events (EventRepository stores them: `putConfirmation`). They carry the same
 * delivery bookkeeping as an event item, so the event repository's claim and record writes
 * serve both; reading them, for operators and tests, is here.
 */
export class ConfirmationRepository {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  /** One confirmation with its delivery history (operators, tests). */
  async get(merchantRef: string, id: string): Promise<StoredDelivery | undefined> {
    const { Item } = await dynamo(() =>
      this.client.send(new GetCommand({ TableName: this.table, Key: confirmationKey(merchantRef, id), ConsistentRead: true })),
    );
    return Item ? toEvent(Item) : undefined;
  }

  /** A merchant's confirmations (at most `limit`), for operators and tests. */
  async list(merchantRef: string, limit = 100): Promise<StoredDelivery[]> {
    const { Items = [] } = await dynamo(() =>
      this.client.send(
        new QueryCommand({
          TableName: this.table,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': `CONFIRMATIONS#${merchantRef}` },
          Limit: limit,
          ConsistentRead: true,
        }),
      ),
    );
    return Items.map(toEvent);
  }
}

export { confirmationKey };
