import type { Logger } from '../ports/logger.js';
import type { MerchantEnvironment } from '../domain/merchant.js';
import type { ConfigRepository } from '../../adapters/dynamodb/config-repository.js';
import type { OrderRepository } from '../../adapters/dynamodb/order-repository.js';
import type { PaymentOperationsRepository } from '../../adapters/dynamodb/payment-operations-repository.js';
import type { PaymentRepository } from '../../adapters/dynamodb/payment-repository.js';
import type { Authorizer } from '../ports/authorizer.js';

/** What captures, reversals and refunds need (no payload keys, no network keys). */
export interface LifecycleDeps {
  config: ConfigRepository;
  orders: OrderRepository;
  payments: Pick<PaymentRepository, 'get'>;
  operations: PaymentOperationsRepository;
  authorizers: Record<MerchantEnvironment, Authorizer>;
  settings: {
    authorizerTimeoutMs: number;
    /** After an unanswered call, how long it may still land at the acquirer. */
    inFlightMs: number;
    /** At most this many captures + refunds per payment (the item stays small). */
    maxOperations: number;
  };
  now: () => number;
}

export interface LifecycleFacts {
  logger: Logger;
}
