import { StoreConflictError } from '../../core/ports/store-conflict.js';
import { DeleteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { MerchantConfig, Outlet } from '../../core/domain/merchant.js';
import type { PaymentMethodsConfig } from '../../core/domain/payment-methods.js';
import { dynamo, withoutKeys } from './dynamo.js';
import type { ConfigStore, ReadOptions } from '../../core/ports/config-store.js';

const platformKey = { pk: 'PLATFORM', sk: 'PAYMENT_METHODS' };
const tenantKey = (tenantRef: string) => ({ pk: `TENANT#${tenantRef}`, sk: 'PAYMENT_METHODS' });
const merchantKey = (merchantRef: string) => ({ pk: `MERCHANT#${merchantRef}`, sk: 'VCTP' });
const outletKey = (outletId: string) => ({ pk: `OUTLET#${outletId}`, sk: 'OUTLET' });
const processorAccountKey = (processor: string, account: string) => ({ pk: `PROCESSOR_ACCOUNT#${processor}#${account}`, sk: 'MERCHANT' });

/** Platform, tenant, merchant and outlet records: one table, one item per record. */
export class ConfigRepository implements ConfigStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  /**
   * Reads are eventually consistent (cheaper, and a switch seen a moment late is harmless)
   * except where the caller is about to write what it read: `{ consistent: true }`.
   */
  getPlatformMethods(options: ReadOptions = {}): Promise<PaymentMethodsConfig | undefined> {
    return this.get<PaymentMethodsConfig>(platformKey, options);
  }

  getTenantMethods(tenantRef: string, options: ReadOptions = {}): Promise<PaymentMethodsConfig | undefined> {
    return this.get<PaymentMethodsConfig>(tenantKey(tenantRef), options);
  }

  /** Optimistic write: fails with StoreConflictError if someone else wrote since `expectedVersion`. */
  putPlatformMethods(config: PaymentMethodsConfig, expectedVersion: number): Promise<void> {
    return this.putVersioned({ ...platformKey, ...config }, expectedVersion);
  }

  putTenantMethods(tenantRef: string, config: PaymentMethodsConfig, expectedVersion: number): Promise<void> {
    return this.putVersioned({ ...tenantKey(tenantRef), tenantRef, ...config }, expectedVersion);
  }

  getMerchant(merchantRef: string, options: ReadOptions = {}): Promise<MerchantConfig | undefined> {
    return this.get<MerchantConfig>(merchantKey(merchantRef), options);
  }

  /** Creates or replaces; a merchant never moves to another tenant. */
  async putMerchant(merchant: MerchantConfig): Promise<void> {
    await dynamo(() =>
      this.client.send(
        new PutCommand({
          TableName: this.table,
          Item: { ...merchantKey(merchant.merchantRef), ...merchant },
          ConditionExpression: 'attribute_not_exists(pk) OR tenantRef = :tenant',
          ExpressionAttributeValues: { ':tenant': merchant.tenantRef },
        }),
      ),
    );
  }

  getOutlet(outletId: string, options: ReadOptions = {}): Promise<Outlet | undefined> {
    return this.get<Outlet>(outletKey(outletId), options);
  }

  /** Claims an outlet for a merchant; StoreConflictError when another merchant owns it. */
  async putOutlet(outlet: Outlet): Promise<void> {
    await dynamo(() =>
      this.client.send(
        new PutCommand({
          TableName: this.table,
          Item: { ...outletKey(outlet.outletId), ...outlet },
          ConditionExpression: 'attribute_not_exists(pk) OR merchantRef = :merchant',
          ExpressionAttributeValues: { ':merchant': outlet.merchantRef },
        }),
      ),
    );
  }

  /** Releases an outlet, only if it still belongs to this merchant. */
  async deleteOutlet(outletId: string, merchantRef: string): Promise<void> {
    try {
      await dynamo(() =>
        this.client.send(
          new DeleteCommand({
            TableName: this.table,
            Key: outletKey(outletId),
            ConditionExpression: 'merchantRef = :merchant',
            ExpressionAttributeValues: { ':merchant': merchantRef },
          }),
        ),
      );
    } catch (error) {
      if (!(error instanceof StoreConflictError)) throw error; // already gone or reassigned: nothing to release
    }
  }

  /** Claims a processor account for a merchant; StoreConflictError when another merchant holds it. */
  async claimProcessorAccount(processor: string, account: string, merchantRef: string): Promise<void> {
    await dynamo(() =>
      this.client.send(
        new PutCommand({
          TableName: this.table,
          Item: { ...processorAccountKey(processor, account), processor, account, merchantRef },
          ConditionExpression: 'attribute_not_exists(pk) OR merchantRef = :merchant',
          ExpressionAttributeValues: { ':merchant': merchantRef },
        }),
      ),
    );
  }

  async processorAccountOwner(processor: string, account: string, options: ReadOptions = {}): Promise<string | undefined> {
    return (await this.get<{ merchantRef: string }>(processorAccountKey(processor, account), options))?.merchantRef;
  }

  /** Releases a processor account, only if it still belongs to this merchant. */
  async releaseProcessorAccount(processor: string, account: string, merchantRef: string): Promise<void> {
    try {
      await dynamo(() =>
        this.client.send(
          new DeleteCommand({
            TableName: this.table,
            Key: processorAccountKey(processor, account),
            ConditionExpression: 'merchantRef = :merchant',
            ExpressionAttributeValues: { ':merchant': merchantRef },
          }),
        ),
      );
    } catch (error) {
      if (!(error instanceof StoreConflictError)) throw error; // already released or claimed by another
    }
  }

  private async get<T>(key: Record<string, string>, options: ReadOptions): Promise<T | undefined> {
    const { Item } = await dynamo(() =>
      this.client.send(new GetCommand({ TableName: this.table, Key: key, ...(options.consistent ? { ConsistentRead: true } : {}) })),
    );
    return Item ? withoutKeys<T>(Item) : undefined;
  }

  private async putVersioned(item: Record<string, unknown> & { version: number }, expectedVersion: number): Promise<void> {
    await dynamo(() =>
      this.client.send(
        new PutCommand({
          TableName: this.table,
          Item: item,
          ConditionExpression: expectedVersion === 0 ? 'attribute_not_exists(pk)' : 'version = :expected',
          ...(expectedVersion === 0 ? {} : { ExpressionAttributeValues: { ':expected': expectedVersion } }),
        }),
      ),
    );
  }
}

export type { ReadOptions };
