import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { HostedSession } from '../../core/domain/hosted-session.js';
import { batchGet } from './batch-get.js';
import { dynamo } from './dynamo.js';
import { orderFromItems, orderPk, paymentSk, type OrderSnapshot } from './order-repository.js';
import type { SessionStore } from '../../core/ports/session-store.js';

/** Hosted sessions keyed by the SHA-256 of their token; `expiresAt` is the TTL attribute. */
export class SessionRepository implements SessionStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
    /** Where orders live: `findWithPayment` reads one beside the session. */
    private readonly ordersTable?: string,
  ) {}

  async create(session: HostedSession): Promise<void> {
    const { tokenHash, ...rest } = session;
    await dynamo(() =>
      this.client.send(
        new PutCommand({
          TableName: this.table,
          Item: { pk: tokenHash, ...rest },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      ),
    );
  }

  /**
   * Returns the stored session even if expired: the caller decides (TTL deletion is lazy).
   * Strongly consistent: a browser uses a session the moment the merchant created it.
   */
  async findByTokenHash(tokenHash: string): Promise<HostedSession | undefined> {
    const { Item } = await dynamo(() => this.client.send(new GetCommand({ TableName: this.table, Key: { pk: tokenHash }, ConsistentRead: true })));
    return Item ? toSession(Item) : undefined;
  }

  /**
   * The session and, in the same strongly consistent BatchGetItem, the order item and the one
   * payment a payment route names: a session-token payment (4.3, 4.10) makes one read where it
   * would make two in a row. Nothing is decided here: the caller authenticates with the
   * session, and the use case scopes the order (a session for another order is a 404 there).
   */
  async findWithPayment(
    tokenHash: string,
    ids: { orderRef: string; paymentRef: string },
  ): Promise<{ session: HostedSession | undefined; order: OrderSnapshot | undefined }> {
    if (!this.ordersTable) throw new Error('SessionRepository: findWithPayment needs the orders table');
    const pk = orderPk(ids.orderRef);
    const items = await batchGet(this.client, {
      [this.table]: { Keys: [{ pk: tokenHash }], ConsistentRead: true },
      [this.ordersTable]: {
        Keys: [
          { pk, sk: 'ORDER' },
          { pk, sk: paymentSk(ids.paymentRef) },
        ],
        ConsistentRead: true,
      },
    });
    const sessionItem = items[this.table]?.find((item) => item.pk === tokenHash);
    return { session: sessionItem && toSession(sessionItem), order: orderFromItems(items[this.ordersTable] ?? []) };
  }
}

function toSession(item: Record<string, unknown>): HostedSession {
  const { pk, ...rest } = item;
  return { tokenHash: pk as string, ...(rest as Omit<HostedSession, 'tokenHash'>) };
}
