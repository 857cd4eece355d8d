import type { Order } from '../../core/domain/order.js';
import type { Payment } from '../../core/domain/payment.js';
import type { OrderSnapshot, OrderStore } from '../../core/ports/order-store.js';
import { conflict, copy, paymentKey, type MemoryTables } from './tables.js';

/** Orders and their payments in memory; every write create-only, like the DynamoDB store's conditional puts. */
export class MemoryOrderStore implements OrderStore {
  constructor(private readonly tables: MemoryTables) {}

  /** Payment first: an order is never visible without its payment (a leftover payment is harmless). */
  async create(order: Order, payment: Payment): Promise<void> {
    await this.addPayment(payment);
    if (this.tables.orders.has(order.orderRef)) throw conflict(this.tables.orders.get(order.orderRef));
    this.tables.orders.set(order.orderRef, copy(order));
  }

  async addPayment(payment: Payment): Promise<void> {
    const key = paymentKey(payment.orderRef, payment.paymentRef);
    const existing = this.tables.payments.get(key);
    if (existing) throw conflict(existing.payment);
    this.tables.payments.set(key, { payment: copy(payment), outbox: [], dueAt: undefined });
  }

  async get(orderRef: string): Promise<OrderSnapshot | undefined> {
    return snapshotOf(this.tables, orderRef);
  }
}

/**
 * An order with its payments (all, or only `paymentRef`), as one read of the order's partition
 * would give them: payments ordered by reference; undefined without the order.
 */
export function snapshotOf(tables: MemoryTables, orderRef: string, onlyPaymentRef?: string): OrderSnapshot | undefined {
  const order = tables.orders.get(orderRef);
  if (!order) return undefined;
  const payments = [...tables.payments.values()]
    .map((record) => record.payment)
    .filter((payment) => payment.orderRef === orderRef && (onlyPaymentRef === undefined || payment.paymentRef === onlyPaymentRef))
    .sort((a, b) => (a.paymentRef < b.paymentRef ? -1 : a.paymentRef > b.paymentRef ? 1 : 0));
  return copy({ order, payments });
}
