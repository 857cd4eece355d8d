import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { PaymentLink } from '../../core/domain/payment-link.js';
import { dynamo } from './dynamo.js';
import { stripItem } from './order-repository.js';
import { StoreConflictError } from '../../core/ports/store-conflict.js';
import type { LinkStore } from '../../core/ports/link-store.js';

const linkKey = (linkRef: string) => ({ pk: `LINK#${linkRef}`, sk: 'LINK' });

/**
 * Payment links (SPEC 4.14), one item each in the orders table (partition `LINK#<linkRef>`).
 * They carry no outbox, so the webhook stream filter never passes them. Every change is a
 * single conditional UpdateItem: the order is attached once, a cancellation happens once, and
 * either it is undone (a payment was under way) or a payment makes it final — never both.
 */
export class PaymentLinkRepository implements LinkStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async create(link: PaymentLink): Promise<void> {
    await dynamo(() =>
      this.client.send(
        new PutCommand({
          TableName: this.table,
          Item: { ...linkKey(link.linkRef), kind: 'PAYMENT_LINK', ...link },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
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

  /**
   * Cancels once, and only before expiry (ISO times compare as strings), under `cancelId` (the
   * cancel request's own id, so that it recognises its write when the SDK's retry meets it).
   * StoreConflictError otherwise, with the link as it was when the engine returns it.
   */
  async cancel(linkRef: string, at: string, cancelId: string): Promise<PaymentLink> {
    const { Attributes } = await dynamo(() =>
      this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: linkKey(linkRef),
          UpdateExpression: 'SET cancelledAt = :at, cancelId = :cancelId',
          ConditionExpression: 'kind = :kind AND attribute_not_exists(cancelledAt) AND expiresAt > :at',
          ExpressionAttributeValues: { ':at': at, ':cancelId': cancelId, ':kind': 'PAYMENT_LINK' },
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      ),
    );
    return stripItem<PaymentLink>(Attributes!);
  }

  /**
   * Takes back the cancel `cancelId` (a payment had started meanwhile), unless a payment made it
   * final first (`makeCancelFinal`). 'undone' — the link is not cancelled by it any more (also
   * when this very undo landed and the SDK's retry met it); 'final' — the cancel stands.
   */
  async undoCancel(linkRef: string, cancelId: string): Promise<'undone' | 'final'> {
    try {
      await dynamo(() =>
        this.client.send(
          new UpdateCommand({
            TableName: this.table,
            Key: linkKey(linkRef),
            UpdateExpression: 'REMOVE cancelledAt, cancelId',
            ConditionExpression: 'cancelId = :cancelId AND attribute_not_exists(cancelFinalAt)',
            ExpressionAttributeValues: { ':cancelId': cancelId },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        ),
      );
      return 'undone';
    } catch (error) {
      if (!(error instanceof StoreConflictError)) throw error;
      const link = error.current ? (error.current as unknown as PaymentLink) : await this.get(linkRef);
      return link?.cancelId === cancelId ? 'final' : 'undone';
    }
  }

  /**
   * A payment that found the link cancelled makes the cancel final before it gives up, so the
   * cancel can no longer be undone behind its refusal (link-cancellation.ts). Idempotent.
   * StoreConflictError when the link is not cancelled (the cancel was undone meanwhile).
   */
  async makeCancelFinal(linkRef: string, at: string): Promise<void> {
    await dynamo(() =>
      this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: linkKey(linkRef),
          UpdateExpression: 'SET cancelFinalAt = if_not_exists(cancelFinalAt, :at)',
          ConditionExpression: 'kind = :kind AND attribute_exists(cancelledAt)',
          ExpressionAttributeValues: { ':at': at, ':kind': 'PAYMENT_LINK' },
        }),
      ),
    );
  }
}
