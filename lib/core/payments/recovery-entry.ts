import { createHash } from 'node:crypto';
import type { Order } from '../domain/order.js';

/**
 * A processor that acknowledged an operation as pending decides later (SPEC 4.16): Adyen tells
 * by notification, Checkout.com is asked (`recover`). So that a pending authorization or
 * capture, reversal or refund is settled even when nobody touches the payment again, the write
 * that records it as pending also appends one of these to the payment's outbox; the outbox
 * worker keeps it as a delivery of its own and "delivers" it by asking the processor — on the
 * webhooks' schedule (5 s, 30 s, 2 min … about a day), until it is settled. Asking is never
 * sending: recovery by reference, never a replay of an acknowledged operation.
 */
export interface OutboxRecovery {
  id: string;
  kind: 'PROCESSOR_RECOVERY';
  createdAt: string;
  merchantRef: string;
  /** `{orderRef, paymentRef, operationRef?}` serialized once: the authorization, or one of its operations. */
  body: string;
}

export interface RecoveryTarget {
  orderRef: string;
  paymentRef: string;
  operationRef?: string;
}

export const isOutboxRecovery = (entry: object): entry is OutboxRecovery => (entry as { kind?: unknown }).kind === 'PROCESSOR_RECOVERY';

/** One id per pending thing (derived), so that a repeated append is stored once. */
export function recoveryEntry(
  order: Pick<Order, 'merchantRef' | 'orderRef'>,
  paymentRef: string,
  operationRef: string | undefined,
  now: number,
): OutboxRecovery {
  const target: RecoveryTarget = { orderRef: order.orderRef, paymentRef, ...(operationRef ? { operationRef } : {}) };
  const id = `rcv_${createHash('sha256')
    .update(`${paymentRef}\u0000${operationRef ?? ''}`)
    .digest('hex')
    .slice(0, 32)}`;
  return { id, kind: 'PROCESSOR_RECOVERY', createdAt: new Date(now).toISOString(), merchantRef: order.merchantRef, body: JSON.stringify(target) };
}
