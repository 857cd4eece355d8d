import { StoreConflictError } from '../../core/ports/store-conflict.js';
import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { PaymentLink } from '../../core/domain/payment-link.js';
import { dynamo } from './dynamo.js';
import { stripItem } from './order-repository.js';

const linkKey = (linkRef: string) => ({ pk: `LINK#${linkRef}`, sk: 'LINK' });

/**
 * Payment links (SPEC 4.14), one item each in the orders table (partition `LINK#<linkRef>`).
 * They carry no outbox, so the webhook stream filter never passes them. Every change is a
 * single conditional UpdateItem: the order is attached once, a cancellation happens once.
 */
export class PaymentLinkRepository {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async create(link: PaymentLink): Promise<void> {
    await dynamo(() =>
      this.client.send(
        new PutCommand({ TableName: this.table, Item: { ...linkKey(link.linkRef), kind: 'PAYMENT_LINK', ...link }, ConditionExpression: 'attribute_not_exists(pk)' }),
      ),
    );
  }

  /** Strongly consistent: the shopper opens a link the moment the merchant created it. */
  async get(linkRef: string): Promise<PaymentLink | undefined> {
    const { Item } = await dynamo(() => this.client.send(new GetCommand({ TableName: this.table, Key: linkKey(linkRef), ConsistentRead: true })));
    return Item && Item.kind === 'PAYMENT_LINK' ? stripItem<PaymentLink>(Item) : undefined;
  }

  /**
   * Attaches the link's one order: only if none is attached yet and the link is not cancelled.
   * Throws StoreConflictError when another open won (or the link was cancelled): re-read it.
   */
  async attachOrder(linkRef: string, orderRef: string): Promise<void> {
    await dynamo(() =>
      this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: linkKey(linkRef),
          UpdateExpression: 'SET orderRef = :orderRef',
          ConditionExpression: 'kind = :kind AND attribute_not_exists(orderRef) AND attribute_not_exists(cancelledAt)',
          ExpressionAttributeValues: { ':orderRef': orderRef, ':kind': 'PAYMENT_LINK' },
        }),
      ),
    );
  }

  /** Cancels once, and only before expiry (ISO times compare as strings). StoreConflictError otherwise. */
  async cancel(linkRef: string, at: string): Promise<PaymentLink> {
    const { Attributes } = await dynamo(() =>
      this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: linkKey(linkRef),
          UpdateExpression: 'SET cancelledAt = :at',
          ConditionExpression: 'kind = :kind AND attribute_not_exists(cancelledAt) AND expiresAt > :at',
          ExpressionAttributeValues: { ':at': at, ':kind': 'PAYMENT_LINK' },
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    return stripItem<PaymentLink>(Attributes!);
  }

  /** Takes back the cancel written at `at` (a payment had started meanwhile). Only that cancel: a no-op otherwise. */
  async undoCancel(linkRef: string, at: string): Promise<void> {
    await dynamo(() =>
      this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: linkKey(linkRef),
          UpdateExpression: 'REMOVE cancelledAt',
          ConditionExpression: 'cancelledAt = :at',
          ExpressionAttributeValues: { ':at': at },
        }),
      ),
    ).catch((error: unknown) => {
      if (!(error instanceof StoreConflictError)) throw error;
    });
  }
}
