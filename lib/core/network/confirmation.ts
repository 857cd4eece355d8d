import { createHash } from 'node:crypto';
import type { Order } from '../domain/order.js';
import type { Payment, PaymentOperation } from '../domain/payment.js';
import type { ConfirmationOutcome, NetworkConfirmation } from '../ports/network-client.js';

/**
 * A network confirmation as the write that ends a checkout appends it to the payment item's
 * outbox (lib/adapters/dynamodb/outbox.ts), beside the merchant's webhook events: the same write, so
 * a crash right after it loses nothing, and no network call in the request path. The delivery
 * worker moves it into an item of its own and sends it (lib/core/network/confirmation-delivery.ts).
 */
export interface OutboxConfirmation {
  id: string;
  kind: 'NETWORK_CONFIRMATION';
  createdAt: string;
  merchantRef: string;
  /** The NetworkConfirmation, serialized once (DynamoDB maps do not keep key order). */
  body: string;
}

export const isOutboxConfirmation = (entry: object): entry is OutboxConfirmation => (entry as { kind?: unknown }).kind === 'NETWORK_CONFIRMATION';

/**
 * Which payments are confirmed: Click to Pay checkouts of Mastercard cards (SPEC 4.3). Visa
 * asks for no confirmation; Direct Wallet (4.4) data never came through an SRC checkout we
 * could quote, so it has no srcCheckout and sends nothing either.
 */
export function confirmsToNetwork(payment: Pick<Payment, 'paymentMethod' | 'srcCheckout'>): boolean {
  return payment.paymentMethod?.type === 'CLICK_TO_PAY' && payment.paymentMethod.brand === 'MASTERCARD' && payment.srcCheckout !== undefined;
}

/**
 * One id per outcome, derived (not random): the authorization of a payment happens at most
 * once, an operation once per reference, so however often a write is retried or an outbox
 * drained, the same outcome has the same id — stored once, and the network can tell a repeat.
 */
export function confirmationId(paymentRef: string, slot: string): string {
  return `cnf_${createHash('sha256').update(`${paymentRef}\u0000${slot}`).digest('hex').slice(0, 32)}`;
}

/** What an authorization's final write confirms: approved (and, for a sale, captured) or declined. */
export function authorizationConfirmations(order: Pick<Order, 'merchantRef'>, after: Payment, now: number): OutboxConfirmation[] {
  if (!confirmsToNetwork(after)) return [];
  const at = after.updatedAt;
  switch (after.state) {
    case 'FAILED':
      return [
        entry(
          order,
          after,
          'AUTHORISATION',
          { outcome: 'DECLINED', amount: after.amount, occurredAt: at, ...(after.failure ? { reason: after.failure.code } : {}) },
          now,
        ),
      ];
    case 'AUTHORISED':
    case 'CAPTURED': {
      const approved = entry(
        order,
        after,
        'AUTHORISATION',
        { outcome: 'AUTHORISED', amount: after.amount, occurredAt: after.authorization?.at ?? at, ...code(after) },
        now,
      );
      const sale = after.operations?.[after.paymentRef];
      if (after.state !== 'CAPTURED' || !sale) return [approved];
      return [approved, operationEntry(order, after, after.paymentRef, sale, now)];
    }
    default:
      return []; // AWAIT_3DS: the checkout has not ended yet
  }
}

/** What a settled capture, refund or reversal confirms (failed operations change nothing). */
export function operationConfirmations(order: Pick<Order, 'merchantRef'>, after: Payment, ref: string, now: number): OutboxConfirmation[] {
  const operation = after.operations?.[ref];
  if (!confirmsToNetwork(after) || operation?.state !== 'SUCCEEDED') return [];
  return [operationEntry(order, after, ref, operation, now)];
}

const OPERATION_OUTCOME: Record<PaymentOperation['kind'], ConfirmationOutcome> = { CAPTURE: 'CAPTURED', REFUND: 'REFUNDED', REVERSAL: 'REVERSED' };

function operationEntry(order: Pick<Order, 'merchantRef'>, after: Payment, ref: string, operation: PaymentOperation, now: number): OutboxConfirmation {
  const amount = { currencyCode: after.amount.currencyCode, value: operation.amount };
  return entry(
    order,
    after,
    `OPERATION:${ref}`,
    { outcome: OPERATION_OUTCOME[operation.kind], amount, occurredAt: operation.settledAt ?? after.updatedAt, ...code(after) },
    now,
  );
}

const code = (payment: Payment) => (payment.authorization ? { authorizationCode: payment.authorization.code } : {});

type Details = Pick<NetworkConfirmation, 'outcome' | 'amount' | 'occurredAt' | 'authorizationCode' | 'reason'>;

function entry(order: Pick<Order, 'merchantRef'>, payment: Payment, slot: string, details: Details, now: number): OutboxConfirmation {
  const src = payment.srcCheckout!;
  const confirmation: NetworkConfirmation = {
    id: confirmationId(payment.paymentRef, slot),
    network: src.network,
    srcCorrelationId: src.srcCorrelationId,
    ...(src.srciTransactionId ? { srciTransactionId: src.srciTransactionId } : {}),
    paymentRef: payment.paymentRef,
    ...details,
  };
  return {
    id: confirmation.id,
    kind: 'NETWORK_CONFIRMATION',
    createdAt: new Date(now).toISOString(),
    merchantRef: order.merchantRef,
    body: JSON.stringify(confirmation),
  };
}
