import { documentClient } from './aws.js';
import { paymentConfig } from './config/payment-config.js';
import { serviceConfig } from './config/service-config.js';
import type { LifecycleDeps } from '../core/operations/deps.js';
import { PaymentOperationsRepository } from '../adapters/dynamodb/payment-operations-repository.js';
import { PaymentRepository } from '../adapters/dynamodb/payment-repository.js';
import { authorizers } from './acquirers.js';
import { configRepository, orderRepository } from './core.js';
import { toPaymentResource } from '../http/resources/payment-resource.js';
import { clock } from './clock.js';

/** Captures, reversals and refunds: no payload or network keys are loaded here. */
export const lifecycleDeps: LifecycleDeps = {
  config: configRepository,
  orders: orderRepository,
  payments: new PaymentRepository(documentClient, serviceConfig.ORDERS_TABLE),
  operations: new PaymentOperationsRepository(documentClient, serviceConfig.ORDERS_TABLE),
  authorizers,
  settings: {
    authorizerTimeoutMs: paymentConfig.AUTHORIZER_TIMEOUT_MS,
    inFlightMs: paymentConfig.AUTHORIZER_TIMEOUT_MS,
    maxOperations: 100,
  },
  now: clock,
  represent: toPaymentResource,
};
