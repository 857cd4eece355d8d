import type { PaymentRepresentation } from '../ports/representation.js';
import type { Logger } from '../ports/logger.js';

import type { AuthorizerSource } from '../ports/authorizer.js';
import type { ConfigStore } from '../ports/config-store.js';
import type { OrderStore } from '../ports/order-store.js';
import type { PaymentOperationsStore } from '../ports/payment-operations-store.js';
import type { PaymentStore } from '../ports/payment-store.js';

/** What captures, reversals and refunds need (no payload keys, no network keys). */
export interface LifecycleDeps {
  config: ConfigStore;
  orders: OrderStore;
  payments: Pick<PaymentStore, 'get'>;
  operations: PaymentOperationsStore;
  /** The merchant's acquirer: sandbox merchants never reach a real one, production merchants their own processor. */
  authorizers: AuthorizerSource;
  settings: {
    authorizerTimeoutMs: number;
    /** After an unanswered call, how long it may still land at the acquirer. */
    inFlightMs: number;
    /** At most this many captures + refunds per payment (the item stays small). */
    maxOperations: number;
  };
  now: () => number;
  /** How a payment is shown in the events its writes announce (the edge's payment resource). */
  represent: PaymentRepresentation;
}

export interface LifecycleFacts {
  logger: Logger;
}
