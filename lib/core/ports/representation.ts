import type { Payment } from '../domain/payment.js';

/**
 * How a payment is shown outside the service — the resource of API answers, the `data` of
 * webhook events — given by the edge (lib/http/resources/payment-resource.ts). The core
 * decides when a payment is shown and to whom, never its public shape.
 */
export type PaymentRepresentation = (payment: Payment) => Readonly<Record<string, unknown>>;
