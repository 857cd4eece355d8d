import type { HostedSession } from '../../core/domain/hosted-session.js';
import type { MerchantConfig, Outlet } from '../../core/domain/merchant.js';
import type { Order } from '../../core/domain/order.js';
import type { PaymentLink } from '../../core/domain/payment-link.js';
import type { PaymentMethodsConfig } from '../../core/domain/payment-methods.js';
import type { Payment } from '../../core/domain/payment.js';
import type { WebhookConfig } from '../../core/domain/webhook-config.js';
import type { OutboxEntry } from '../../core/ports/outbox.js';
import type { DeliveryAttempt, DeliveryKind, DeliveryStatus, DueRef } from '../../core/ports/outbox-store.js';
import type { PendingThreeDs } from '../../core/ports/payment-store.js';
import type { Refusal } from '../../core/ports/replay-store.js';
import { StoreConflictError } from '../../core/ports/store-conflict.js';

/**
 * The state every in-memory store shares, as the DynamoDB stores share their tables: a payment
 * written by the payment store is the one the operations store reserves on and whose outbox the
 * outbox store drains. One instance per test (createMemoryStores). Nothing leaves it by
 * reference: every read and every conflict hands out a copy, so a caller that mutates what it
 * got changes nothing stored — as with a database.
 */
export class MemoryTables {
  /** Payments with their outbox (the DynamoDB item's `outbox` and `dueAt`), by `paymentKey`. */
  readonly payments = new Map<string, PaymentRecord>();
  readonly orders = new Map<string, Order>();
  readonly pendingThreeDs = new Map<string, PendingThreeDs>();
  readonly links = new Map<string, PaymentLink>();
  readonly replay = new Map<string, ReplayRecord>();
  readonly sessions = new Map<string, HostedSession>();
  readonly platformMethods = new Map<'platform', PaymentMethodsConfig>();
  readonly tenantMethods = new Map<string, PaymentMethodsConfig & { tenantRef: string }>();
  readonly merchants = new Map<string, MerchantConfig>();
  readonly outlets = new Map<string, Outlet>();
  /** Processor accounts (`name\naccount`) → the merchant that holds each. */
  readonly processorAccounts = new Map<string, string>();
  readonly webhookConfigs = new Map<string, WebhookConfig>();
  /** Webhook events and network confirmations, by `refKey` of their DueRef. */
  readonly deliveries = new Map<string, DeliveryRecord>();
}

/** A payment as stored: the domain record, and what its writes announced that is not drained yet. */
export interface PaymentRecord {
  payment: Payment;
  outbox: OutboxEntry[];
  /** When the outbox became due (the first undrained write): kept until the outbox is cleared. */
  dueAt: number | undefined;
}

export interface ReplayRecord {
  paymentRef: string;
  /** Epoch seconds. */
  expiresAt: number;
  refused?: Refusal & { paymentRef: string };
}

/** A delivery as stored: its entry's fields and the delivery bookkeeping. */
export interface DeliveryRecord {
  kind: DeliveryKind;
  ref: DueRef;
  entry: OutboxEntry;
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  failures: number;
  dueAt: number | undefined;
  claimedUntil: number | undefined;
  /** Epoch seconds: how long the record is kept (never read back, as in DynamoDB). */
  expiresAt: number;
}

export const paymentKey = (orderRef: string, paymentRef: string): string => `${orderRef}\u0000${paymentRef}`;
export const refKey = (ref: DueRef): string => `${ref.pk}\u0000${ref.sk}`;

/** Where a payment's outbox is, as the outbox store names it (opaque to the core). */
export const ORDER_PREFIX = 'order/';
export const PAYMENT_PREFIX = 'payment/';
export const paymentOutboxRef = (orderRef: string, paymentRef: string): DueRef => ({ pk: `${ORDER_PREFIX}${orderRef}`, sk: `${PAYMENT_PREFIX}${paymentRef}` });

/** A deep copy: stored records never travel by reference. */
export const copy = <T>(value: T): T => structuredClone(value);

/** The core's conflict, carrying a copy of the record as the failed condition saw it (undefined: absent). */
export function conflict<T>(current: T | undefined): StoreConflictError<T> {
  return new StoreConflictError<T>(current === undefined ? undefined : copy(current));
}

export const epochSeconds = (ms: number): number => Math.floor(ms / 1000);
