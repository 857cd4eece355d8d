import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Amount } from '../../core/domain/order.js';
import { dynamo, epochSeconds, withoutKeys } from '../dynamodb/dynamo.js';

/**
 * What the sandbox ACS knows of a challenge, as a real ACS keeps it from the AReq: the ids,
 * where to send the cres (the AReq's notificationURL), what the cardholder is shown, and once
 * answered the result it reports to the 3DS server (the RReq). Kept in the sandbox table
 * (`SANDBOX_ACS#<threeDSServerTransID>`), with the table's TTL.
 */
export interface AcsTransaction {
  transactionId: string;
  acsTransactionId: string;
  notificationUrl: string;
  amount: Amount;
  brand: string;
  result?: AcsResult;
  /** Epoch seconds; the TTL attribute. */
  expiresAt: number;
}

export interface AcsResult {
  transStatus: 'Y' | 'N';
  eci?: string;
  at: string;
}

export class SandboxAcsRepository {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async put(transaction: AcsTransaction): Promise<void> {
    await dynamo(() =>
      this.client.send(new PutCommand({ TableName: this.table, Item: { ...key(transaction.transactionId), kind: 'SANDBOX_ACS', ...transaction } })),
    );
  }

  /** Undefined when absent or expired (TTL deletion is lazy). */
  async get(transactionId: string, now = Date.now()): Promise<AcsTransaction | undefined> {
    const { Item } = await dynamo(() => this.client.send(new GetCommand({ TableName: this.table, Key: key(transactionId), ConsistentRead: true })));
    if (Item?.kind !== 'SANDBOX_ACS' || (Item.expiresAt as number) <= epochSeconds(now)) return undefined;
    const { kind: _kind, ...transaction } = withoutKeys<AcsTransaction & { kind: string }>(Item);
    return transaction;
  }

  /** Records the answer once; StoreConflictError if already answered, expired or not this ACS transaction. */
  async recordResult(transactionId: string, acsTransactionId: string, result: AcsResult): Promise<void> {
    await dynamo(() =>
      this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: key(transactionId),
          UpdateExpression: 'SET #result = :result',
          ConditionExpression: 'acsTransactionId = :acs AND attribute_not_exists(#result) AND expiresAt > :now',
          ExpressionAttributeNames: { '#result': 'result' },
          ExpressionAttributeValues: { ':result': result, ':acs': acsTransactionId, ':now': epochSeconds() },
        }),
      ),
    );
  }
}

const key = (transactionId: string) => ({ pk: `SANDBOX_ACS#${transactionId}` });
