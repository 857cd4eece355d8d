import { GetCommand, PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ProcessorInbox, ProcessorReport, ReferenceLocation } from '../../core/ports/processor-inbox.js';
import { StoreConflictError } from '../../core/ports/store-conflict.js';
import { dynamo, epochSeconds } from './dynamo.js';

/**
 * Kept long enough for the longest life of a payment's operations (refunds months later): about
 * 13 months, then DynamoDB's TTL removes it.
 */
const RETENTION_SECONDS = 400 * 24 * 3600;

/**
 * The processor inbox (SPEC 4.16) in the orders table, one partition per merchant and reference,
 * `PROCESSOR_REF#<merchantRef>#<reference>`:
 * - `LOCATION`: where the reference lives (order, payment, operation), written before the
 *   request under it is sent (lib/adapters/processors/adyen/adapter.ts);
 * - `REPORT#<key>`: each verified report once (conditional put), with when it was applied.
 * The merchant in the key scopes everything: a report verified with one merchant's key can only
 * ever name that merchant's references. Nothing in it is card data: references, amounts, codes.
 */
export class ProcessorInboxRepository implements ProcessorInbox {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async keep(merchantRef: string, report: ProcessorReport, now: number): Promise<'new' | 'waiting' | 'applied'> {
    try {
      await dynamo(() =>
        this.client.send(
          new PutCommand({
            TableName: this.table,
            Item: {
              pk: partition(merchantRef, report.reference),
              sk: `REPORT#${report.key}`,
              kind: 'PROCESSOR_REPORT',
              key: report.key,
              reference: report.reference,
              effect: report.effect,
              record: report.record,
              receivedAt: new Date(now).toISOString(),
              expiresAt: epochSeconds(now) + RETENTION_SECONDS,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        ),
      );
      return 'new';
    } catch (error) {
      if (!(error instanceof StoreConflictError)) throw error;
      const earlier = (error.current as { appliedAt?: string } | undefined) ?? (await this.report(merchantRef, report));
      return earlier?.appliedAt ? 'applied' : 'waiting';
    }
  }

  async locate(merchantRef: string, reference: string): Promise<ReferenceLocation | undefined> {
    const { Item } = await dynamo(() =>
      this.client.send(new GetCommand({ TableName: this.table, Key: { pk: partition(merchantRef, reference), sk: 'LOCATION' }, ConsistentRead: true })),
    );
    return Item
      ? { orderRef: Item.orderRef as string, paymentRef: Item.paymentRef as string, operation: Item.operation as ReferenceLocation['operation'] }
      : undefined;
  }

  async markApplied(merchantRef: string, report: Pick<ProcessorReport, 'key' | 'reference'>, now: number): Promise<void> {
    await dynamo(() =>
      this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { pk: partition(merchantRef, report.reference), sk: `REPORT#${report.key}` },
          UpdateExpression: 'SET appliedAt = if_not_exists(appliedAt, :at)',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':at': new Date(now).toISOString() },
        }),
      ),
    );
  }

  /** Where `reference` lives: recorded before any request under it is sent. */
  async recordLocation(merchantRef: string, reference: string, location: ReferenceLocation, signal?: AbortSignal): Promise<void> {
    await dynamo(() =>
      this.client.send(
        new PutCommand({
          TableName: this.table,
          Item: {
            pk: partition(merchantRef, reference),
            sk: 'LOCATION',
            kind: 'PROCESSOR_REF',
            ...location,
            expiresAt: epochSeconds() + RETENTION_SECONDS,
          },
        }),
        signal ? { abortSignal: signal } : {},
      ),
    );
  }

  /** The records of the reports received for `reference`, in the order received. */
  async reported(merchantRef: string, reference: string, signal?: AbortSignal): Promise<Record<string, unknown>[]> {
    const { Items = [] } = await dynamo(() =>
      this.client.send(
        new QueryCommand({
          TableName: this.table,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :report)',
          ExpressionAttributeValues: { ':pk': partition(merchantRef, reference), ':report': 'REPORT#' },
          ConsistentRead: true,
        }),
        signal ? { abortSignal: signal } : {},
      ),
    );
    return Items.sort((a, b) => String(a.receivedAt).localeCompare(String(b.receivedAt))).map((item) => item.record as Record<string, unknown>);
  }

  private async report(merchantRef: string, report: Pick<ProcessorReport, 'key' | 'reference'>): Promise<{ appliedAt?: string } | undefined> {
    const { Item } = await dynamo(() =>
      this.client.send(
        new GetCommand({ TableName: this.table, Key: { pk: partition(merchantRef, report.reference), sk: `REPORT#${report.key}` }, ConsistentRead: true }),
      ),
    );
    return Item as { appliedAt?: string } | undefined;
  }
}

const partition = (merchantRef: string, reference: string) => `PROCESSOR_REF#${merchantRef}#${reference}`;
