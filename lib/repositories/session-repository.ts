import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { HostedSession } from '../domain/hosted-session.js';
import { dynamo } from './dynamo.js';

/** Hosted sessions keyed by the SHA-256 of their token; `expiresAt` is the TTL attribute. */
export class SessionRepository {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
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
    if (!Item) return undefined;
    const { pk, ...rest } = Item;
    return { tokenHash: pk as string, ...(rest as Omit<HostedSession, 'tokenHash'>) };
  }
}
