import { handler as captureHandler } from '../../functions/create-capture/handler.js';
import { handler as refundHandler } from '../../functions/create-refund/handler.js';
import { handler as reversalHandler } from '../../functions/create-reversal/handler.js';
import { handler as getOrderHandler } from '../../functions/get-order/handler.js';
import { expect } from 'vitest';
import { configRepository, orderRepository } from '../../lib/composition/core.js';
import { authorizer } from './sandbox-acquirer.js';
import { lifecycleDeps } from '../../lib/composition/lifecycle.js';
import type { OrderAction } from '../../lib/core/domain/order.js';
import type { Payment } from '../../lib/core/domain/payment.js';
import { createOrder } from '../../lib/core/orders/orders.js';
import { tokenData } from './direct-wallet.js';
import type { World } from './endpoints.js';
import { invoke, type InvokeResult } from './invoke.js';
import { payDirectly } from './payments.js';
import { seedMerchant } from './seed.js';
import { platformToken } from './tokens.js';
import { toPaymentResource } from '../../lib/http/resources/payment-resource.js';

type Ids = Pick<World, 'outletId' | 'orderRef' | 'paymentRef'>;
const base = (w: Ids) => `/transactions/outlets/${w.outletId}/orders/${w.orderRef}/payments/${w.paymentRef}`;
const params = (w: Ids) => ({ outletId: w.outletId, orderRef: w.orderRef, paymentRef: w.paymentRef });

/** A seeded merchant with one order of `action`, paid (authorized) through 4.4. */
export async function authorizedWorld(options: { action?: OrderAction; amount?: number } = {}): Promise<World> {
  const merchant = await seedMerchant({}, { directWallet: true });
  const order = await createOrder(
    { config: configRepository, orders: orderRepository, now: Date.now, represent: toPaymentResource },
    { kind: 'platform', subject: 'seed', permissions: new Set() },
    merchant.outletId,
    { action: options.action ?? 'AUTH', amount: { currencyCode: 'AED', value: options.amount ?? 1000 } },
  );
  const world = { ...merchant, orderRef: order.orderRef, paymentRef: (order.payments[0] as { paymentRef: string }).paymentRef };
  const paid = await payDirectly(world, await platformToken(), tokenData());
  if (paid.status !== 200 || !['AUTHORISED', 'CAPTURED'].includes(paid.body.state)) throw new Error(`could not authorize: ${paid.raw}`);
  return world;
}

type Extra = { headers?: Record<string, string> };

export function capture(w: Ids, token: string, body?: unknown, extra: Extra = {}): Promise<InvokeResult> {
  return invoke(captureHandler, {
    method: 'POST',
    path: `${base(w)}/captures`,
    pathParameters: params(w),
    token,
    ...(body === undefined ? {} : { body }),
    ...extra,
  });
}

export function refund(w: Ids, token: string, body?: unknown, extra: Extra = {}): Promise<InvokeResult> {
  return invoke(refundHandler, {
    method: 'POST',
    path: `${base(w)}/refunds`,
    pathParameters: params(w),
    token,
    ...(body === undefined ? {} : { body }),
    ...extra,
  });
}

export function reverse(w: Ids, token: string, extra: Extra = {}): Promise<InvokeResult> {
  return invoke(reversalHandler, { method: 'POST', path: `${base(w)}/reversals`, pathParameters: params(w), token, ...extra });
}

export const aed = (value: number) => ({ amount: { currencyCode: 'AED', value } });

/** The sandbox acquirer's own record of one operation: how often it was sent, what it did. */
export const acquirerRecord = (ref: string) => authorizer.operation(ref);

/** The payment as stored (consistent read), with its operations. */
export const storedPayment = async (w: Pick<World, 'orderRef' | 'paymentRef'>): Promise<Payment> =>
  (await lifecycleDeps.payments.get(w.orderRef, w.paymentRef))!;

/**
 * The bookkeeping SPEC §3 promises, checked on the stored item: totals are the sums of the
 * SUCCEEDED operations, reservations account for every minor unit, nothing is over-drawn,
 * and the acquirer saw each operation at most once.
 */
export async function expectConsistent(w: Pick<World, 'orderRef' | 'paymentRef'>) {
  const p = await storedPayment(w);
  const ops = Object.entries(p.operations ?? {});
  const sum = (kind: string, state: string) => ops.filter(([, o]) => o.kind === kind && o.state === state).reduce((total, [, o]) => total + o.amount, 0);
  const reversed = ops.some(([, o]) => o.kind === 'REVERSAL' && o.state === 'SUCCEEDED');
  const reversing = ops.some(([, o]) => o.kind === 'REVERSAL' && o.state === 'PENDING');
  expect(p.capturedAmount).toBe(sum('CAPTURE', 'SUCCEEDED'));
  expect(p.refundedAmount).toBe(sum('REFUND', 'SUCCEEDED'));
  expect(p.capturedAmount!).toBeLessThanOrEqual(p.amount.value);
  expect(p.refundedAmount!).toBeLessThanOrEqual(p.capturedAmount!);
  if (reversed) {
    expect(p.state).toBe('REVERSED');
    expect(p.capturedAmount).toBe(0);
  } else if (!reversing) {
    expect(p.capturable! + p.capturedAmount! + sum('CAPTURE', 'PENDING')).toBe(p.amount.value);
  }
  expect(p.refundable! + p.refundedAmount! + sum('REFUND', 'PENDING')).toBe(p.capturedAmount);
  expect(p.capturable!).toBeGreaterThanOrEqual(0);
  expect(p.refundable!).toBeGreaterThanOrEqual(0);
  for (const [ref, op] of ops) {
    if (ref === p.paymentRef) continue; // a PURCHASE's sale is the authorization itself
    const record = await acquirerRecord(ref);
    if (op.state === 'SUCCEEDED') expect(record, `${op.kind} ${ref}`).toMatchObject({ calls: 1, operation: op.kind, paymentRef: p.paymentRef });
    else expect(record?.calls ?? 0, `${op.kind} ${ref}`).toBeLessThanOrEqual(1);
  }
  return p;
}

export function readOrderAs(w: Pick<World, 'outletId' | 'orderRef'>, token: string): Promise<InvokeResult> {
  return invoke(getOrderHandler, {
    method: 'GET',
    path: `/transactions/outlets/${w.outletId}/orders/${w.orderRef}`,
    pathParameters: { outletId: w.outletId, orderRef: w.orderRef },
    token,
  });
}
