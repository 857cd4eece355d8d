import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ConditionFailed, dynamo, epochSeconds } from './dynamo.js';

export type ReplayClaim = { outcome: 'claimed' } | { outcome: 'held'; paymentRef: string };

/**
 * The replay guard of SPEC 4.3 step 4: one item per checkout response (hashed jti or
 * srcCorrelationId), claimed by one payment with a conditional put. An expired claim
 * counts as absent even before TTL deletes it.
 */
export class ReplayRepository {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly ttlSeconds = 24 * 3600,
  ) {}

  async claim(replayKey: string, paymentRef: string, now = Date.now()): Promise<ReplayClaim> {
    try {
      await dynamo(() =>
        this.client.send(
          new PutCommand({
            TableName: this.table,
            Item: { pk: replayKey, paymentRef, expiresAt: epochSeconds(now) + this.ttlSeconds },
            ConditionExpression: 'attribute_not_exists(pk) OR expiresAt < :now OR paymentRef = :payment',
            ExpressionAttributeValues: { ':now': epochSeconds(now), ':payment': paymentRef },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        ),
      );
      return { outcome: 'claimed' };
    } catch (error) {
      if (!(error instanceof ConditionFailed)) throw error;
      // The holder comes with the failed condition on real DynamoDB; dynalite needs a read.
      const holder = error.existing ?? (await this.read(replayKey));
      return { outcome: 'held', paymentRef: String(holder?.paymentRef ?? '') };
    }
  }

  private async read(replayKey: string): Promise<Record<string, unknown> | undefined> {
    const { Item } = await dynamo(() => this.client.send(new GetCommand({ TableName: this.table, Key: { pk: replayKey }, ConsistentRead: true })));
    return Item;
  }
}
