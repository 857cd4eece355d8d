import { randomUUID } from 'node:crypto';
import type { Principal } from '../auth/principal.js';
import { coversOrder } from '../auth/scope.js';
import { orderState, type Amount, type Order, type OrderAction, type OrderView } from '../domain/order.js';
import { offeredMethods } from '../domain/payment-methods.js';
import { toPaymentResource, type Payment } from '../domain/payment.js';
import { NotFoundError } from '../errors.js';
import type { ConfigRepository } from '../repositories/config-repository.js';
import { nowIso } from '../repositories/dynamo.js';
import type { OrderRepository } from '../repositories/order-repository.js';
import { loadStanding } from './enablement.js';
import { outletInScope } from './outlets.js';

export interface OrderDeps {
  config: ConfigRepository;
  orders: OrderRepository;
}

export interface CreateOrderInput {
  action: OrderAction;
  amount: Amount;
  merchantOrderReference?: string;
  emailAddress?: string;
}

/** 4.8: an order with its first payment, STARTED. */
export async function createOrder(deps: OrderDeps, principal: Principal, outletId: string, input: CreateOrderInput): Promise<OrderView> {
  const outlet = await outletInScope(deps.config, principal, outletId);
  const createdAt = nowIso();
  const order: Order = {
    orderRef: randomUUID(),
    outletId,
    merchantRef: outlet.merchantRef,
    tenantRef: outlet.tenantRef,
    ...input,
    createdAt,
  };
  const payment: Payment = {
    paymentRef: randomUUID(),
    orderRef: order.orderRef,
    outletId,
    state: 'STARTED',
    amount: input.amount,
    version: 1,
    createdAt,
    updatedAt: createdAt,
  };
  await deps.orders.create(order, payment);
  return orderView(deps, order, [payment]);
}

/** GET order: current state, payments, and the methods offered right now. */
export async function readOrder(deps: OrderDeps, principal: Principal, outletId: string, orderRef: string): Promise<OrderView> {
  const { order, payments } = await orderInScope(deps, principal, outletId, orderRef);
  return orderView(deps, order, payments);
}

export async function orderInScope(deps: Pick<OrderDeps, 'orders'>, principal: Principal, outletId: string, orderRef: string) {
  if (principal.kind === 'session' && principal.orderRef !== orderRef) throw new NotFoundError();
  const found = await deps.orders.get(orderRef);
  if (!found || found.order.outletId !== outletId || !coversOrder(principal, found.order)) throw new NotFoundError();
  return found;
}

async function orderView(deps: OrderDeps, order: Order, payments: Payment[]): Promise<OrderView> {
  const { enablement } = await loadStanding(deps.config, order.tenantRef, order.merchantRef);
  return {
    orderRef: order.orderRef,
    outletId: order.outletId,
    action: order.action,
    amount: order.amount,
    ...(order.merchantOrderReference ? { merchantOrderReference: order.merchantOrderReference } : {}),
    ...(order.emailAddress ? { emailAddress: order.emailAddress } : {}),
    state: orderState(payments),
    paymentMethods: offeredMethods(enablement),
    payments: payments.map(toPaymentResource),
    createdAt: order.createdAt,
  };
}
