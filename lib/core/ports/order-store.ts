import type { Order } from '../domain/order.js';
import type { Payment } from '../domain/payment.js';

/** An order with (some of) its payments, as read at one moment. */
export interface OrderSnapshot {
  order: Order;
  payments: Payment[];
}

/**
 * The order read together with a request's authentication (SessionStore `findWithPayment`): the
 * order and the one payment the route names, strongly consistent. `found` is undefined when the
 * order is absent.
 */
export interface PaymentReadAhead {
  orderRef: string;
  paymentRef: string;
  found: OrderSnapshot | undefined;
}

/** Orders and their payments. Writes are create-only: StoreConflictError when the record exists. */
export interface OrderStore {
  /** Payment first: an order is never visible without its payment. */
  create(order: Order, payment: Payment): Promise<void>;
  /** Another payment on an existing order (a retry after a decline); conflicts if that paymentRef exists. */
  addPayment(payment: Payment): Promise<void>;
  /** Strongly consistent: the order with all its payments. */
  get(orderRef: string): Promise<OrderSnapshot | undefined>;
}
