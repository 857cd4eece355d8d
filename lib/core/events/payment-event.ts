import { randomBytes } from 'node:crypto';
import type { Order } from '../domain/order.js';
import type { OperationKind, Payment, PaymentState } from '../domain/payment.js';

/** The event catalogue of SPEC §4.15. */
export const EVENT_TYPES = [
  'payment.authorised',
  'payment.captured',
  'payment.partially_captured',
  'payment.reversed',
  'payment.refunded',
  'payment.partially_refunded',
  'payment.failed',
  'payment.await_3ds',
  'payment_link.paid',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * An event as the changing write records it on the payment item (its outbox) and as it is
 * later delivered. `body` is the exact JSON every delivery sends, serialized once, so a
 * retry signs and sends the same bytes (DynamoDB maps do not keep key order).
 */
export interface OutboxEvent {
  id: string;
  type: EventType;
  createdAt: string;
  merchantRef: string;
  body: string;
}

/** `evt_` + 12 hex digits of epoch ms + 16 random hex: ids sort by time, so they page. */
export function newEventId(now: number): string {
  return `evt_${now.toString(16).padStart(12, '0')}${randomBytes(8).toString('hex')}`;
}

export const EVENT_ID = /^evt_[0-9a-f]{28}$/;

export function paymentEvent(
  type: EventType,
  order: Pick<Order, 'merchantRef' | 'outletId' | 'orderRef'>,
  shown: Readonly<Record<string, unknown>>,
  now: number,
): OutboxEvent {
  const id = newEventId(now);
  const createdAt = new Date(now).toISOString();
  const data = { ...shown, orderRef: order.orderRef, outletId: order.outletId, merchantRef: order.merchantRef };
  return { id, type, createdAt, merchantRef: order.merchantRef, body: JSON.stringify({ id, type, createdAt, data }) };
}

/**
 * `payment_link.paid` (SPEC 4.14, 4.15): recorded by the same final write that authorises the
 * link's order (lib/core/payments/final-write.ts), so it is announced once, with the payment and
 * the link's reference.
 */
export function paymentLinkPaidEvent(
  order: Pick<Order, 'merchantRef' | 'outletId' | 'orderRef'> & { linkRef: string },
  shown: Readonly<Record<string, unknown>>,
  now: number,
): OutboxEvent {
  const id = newEventId(now);
  const type = 'payment_link.paid';
  const createdAt = new Date(now).toISOString();
  const data = { ...shown, orderRef: order.orderRef, outletId: order.outletId, merchantRef: order.merchantRef, linkRef: order.linkRef };
  return { id, type, createdAt, merchantRef: order.merchantRef, body: JSON.stringify({ id, type, createdAt, data }) };
}

/** What an authorization's final write announces: PURCHASE says both authorised and captured. */
export function authorizationEventTypes(state: PaymentState): EventType[] {
  switch (state) {
    case 'AUTHORISED':
      return ['payment.authorised'];
    case 'CAPTURED':
      return ['payment.authorised', 'payment.captured'];
    case 'FAILED':
      return ['payment.failed'];
    case 'AWAIT_3DS':
      return ['payment.await_3ds'];
    default:
      return [];
  }
}

/** What a settled capture, refund or reversal announces, from the totals it led to. */
export function operationEventType(kind: OperationKind, after: Pick<Payment, 'amount' | 'capturedAmount' | 'refundedAmount'>): EventType {
  const captured = after.capturedAmount ?? 0;
  switch (kind) {
    case 'CAPTURE':
      return captured >= after.amount.value ? 'payment.captured' : 'payment.partially_captured';
    case 'REFUND':
      return (after.refundedAmount ?? 0) >= captured ? 'payment.refunded' : 'payment.partially_refunded';
    case 'REVERSAL':
      return 'payment.reversed';
  }
}
