import { PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Order } from '../../core/domain/order.js';
import type { Payment } from '../../core/domain/payment.js';
import { dynamo, stripItem } from './dynamo.js';
import type { OrderSnapshot, OrderStore, PaymentReadAhead } from '../../core/ports/order-store.js';

const orderPk = (orderRef: string) => `ORDER#${orderRef}`;
const paymentSk = (paymentRef: string) => `PAYMENT#${paymentRef}`;

/**
 * Orders and their payments share a partition, so one Query reads an order with all its
 * payments. Every write is a single-item conditional put.
 */
export class OrderRepository implements OrderStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  /** Payment first: an order is never visible without its payment. A leftover payment is harmless. */
  async create(order: Order, payment: Payment): Promise<void> {
    await this.putNew({ pk: orderPk(order.orderRef), sk: paymentSk(payment.paymentRef), kind: 'PAYMENT', ...payment });
    await this.putNew({ pk: orderPk(order.orderRef), sk: 'ORDER', kind: 'ORDER', ...order });
  }

  /**
   * Another payment on an existing order (a retry after a decline). The conditional put is the
   * concurrency guard: retries of the same failed payment derive the same paymentRef
   * (lib/core/domain/payment-retry.ts), so only one of them writes; the others get StoreConflictError.
   */
  async addPayment(payment: Payment): Promise<void> {
    await this.putNew({ pk: orderPk(payment.orderRef), sk: paymentSk(payment.paymentRef), kind: 'PAYMENT', ...payment });
  }

  async get(orderRef: string): Promise<OrderSnapshot | undefined> {
    const { Items = [] } = await dynamo(() =>
      this.client.send(
        new QueryCommand({
          TableName: this.table,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': orderPk(orderRef) },
          ConsistentRead: true,
        }),
      ),
    );
    return orderFromItems(Items);
  }

  private async putNew(item: Record<string, unknown>): Promise<void> {
    await dynamo(() => this.client.send(new PutCommand({ TableName: this.table, Item: item, ConditionExpression: 'attribute_not_exists(pk)' })));
  }
}

/** The snapshot an order partition's items make (undefined without the order item). */
export function orderFromItems(items: readonly Record<string, unknown>[]): OrderSnapshot | undefined {
  const orderItem = items.find((item) => item.kind === 'ORDER');
  if (!orderItem) return undefined;
  const payments = items.filter((item) => item.kind === 'PAYMENT').map((item) => stripItem<Payment>(item));
  return { order: stripItem<Order>(orderItem), payments };
}

export { orderPk, paymentSk, stripItem };

export type { OrderSnapshot, PaymentReadAhead };
