import { randomUUID } from 'node:crypto';
import { expect, inject } from 'vitest';
import type { Order } from '../../../lib/core/domain/order.js';
import type { Payment } from '../../../lib/core/domain/payment.js';
import { StoreConflictError } from '../../../lib/core/ports/store-conflict.js';
import { contractStores, type ContractStores } from './stores.js';

/**
 * The engine this project runs the contract against (vitest.config.ts `provide`): the same
 * assertions meet the in-memory stores in the core project and the DynamoDB stores in the
 * integration project, so that the two cannot drift apart.
 */
export const engine = inject('storeEngine');
export const stores = (): Promise<ContractStores> => contractStores(engine);

export const NOW = Date.UTC(2026, 5, 1, 10, 0, 0);

/**
 * The conflict a write must throw. Its `current` is the record as the failed condition saw it:
 * always for the in-memory stores; for DynamoDB when the engine returns the old item
 * (DynamoDB Local and AWS do, dynalite does not: then undefined, and the caller reads).
 */
export async function conflictOf<T = Record<string, unknown>>(write: Promise<unknown>, current?: T | 'absent'): Promise<StoreConflictError<T>> {
  const error = await write.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error, 'the write should have lost its condition').toBeInstanceOf(StoreConflictError);
  const conflict = error as StoreConflictError<T>;
  if (current === 'absent') expect(conflict.current).toBeUndefined();
  else if (current !== undefined && (engine === 'memory' || conflict.current !== undefined)) expect(conflict.current).toEqual(current);
  return conflict;
}

export function newOrder(overrides: Partial<Order> = {}): Order {
  return {
    orderRef: randomUUID(),
    outletId: 'o-contract',
    merchantRef: 'm-contract',
    tenantRef: 't-contract',
    action: 'AUTH',
    amount: { currencyCode: 'AED', value: 10_000 },
    createdAt: new Date(NOW).toISOString(),
    ...overrides,
  };
}

export function newPayment(order: Pick<Order, 'orderRef' | 'outletId' | 'amount'>, overrides: Partial<Payment> = {}): Payment {
  const at = new Date(NOW).toISOString();
  return {
    paymentRef: randomUUID(),
    orderRef: order.orderRef,
    outletId: order.outletId,
    state: 'STARTED',
    amount: order.amount,
    version: 1,
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

/** An order with one payment, stored; the payment as stored. */
export async function storedPayment(s: ContractStores, overrides: Partial<Payment> = {}): Promise<Payment> {
  const order = newOrder();
  const payment = newPayment(order, overrides);
  await s.orders.create(order, payment);
  return payment;
}

/** An authorised payment, ready for captures, a reversal or refunds. */
export function authorised(overrides: Partial<Payment> = {}): Partial<Payment> {
  return {
    state: 'AUTHORISED',
    authorization: { code: 'A1B2C3', resultCode: '00', at: new Date(NOW).toISOString() },
    capturedAmount: 0,
    refundedAmount: 0,
    capturable: 10_000,
    refundable: 0,
    operations: {},
    ...overrides,
  };
}
