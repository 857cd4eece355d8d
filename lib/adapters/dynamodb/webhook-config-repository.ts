import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { WebhookConfig } from '../../core/domain/webhook-config.js';
import { dynamo, withoutKeys } from './dynamo.js';
import type { ReadOptions } from './config-repository.js';
import type { WebhookConfigStore } from '../../core/ports/webhook-config-store.js';

/** In the Config table, next to the merchant's VCTP record: same partition, its own sort key. */
const webhookKey = (merchantRef: string) => ({ pk: `MERCHANT#${merchantRef}`, sk: 'WEBHOOK' });

export class WebhookConfigRepository implements WebhookConfigStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async get(merchantRef: string, options: ReadOptions = {}): Promise<WebhookConfig | undefined> {
    const { Item } = await dynamo(() =>
      this.client.send(new GetCommand({ TableName: this.table, Key: webhookKey(merchantRef), ...(options.consistent ? { ConsistentRead: true } : {}) })),
    );
    return Item ? withoutKeys<WebhookConfig>(Item) : undefined;
  }

  async put(config: WebhookConfig, expectedVersion: number): Promise<void> {
    const create = expectedVersion === 0;
    await dynamo(() =>
      this.client.send(
        new PutCommand({
          TableName: this.table,
          Item: { ...webhookKey(config.merchantRef), ...config },
          ConditionExpression: create ? 'attribute_not_exists(pk)' : 'version = :expected',
          ...(create ? {} : { ExpressionAttributeValues: { ':expected': expectedVersion } }),
        }),
      ),
    );
  }
}

export type { WebhookConfigStore };
