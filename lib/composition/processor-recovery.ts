import { documentClient } from './aws.js';
import { serviceConfig } from './config/service-config.js';
import { paymentConfig } from './config/payment-config.js';
import { PaymentRepository } from '../adapters/dynamodb/payment-repository.js';
import type { RecoveryDeps } from '../core/payments/processor-recovery.js';
import { lifecycleDeps } from './lifecycle.js';

/**
 * What the outbox worker needs to ask a processor about a pending authorization or operation
 * (lib/core/payments/processor-recovery.ts): the lifecycle's stores and merchant acquirers, and
 * the payment store for an authorization's final write. Imported on the worker's first recovery.
 */
export const recoveryDeps: RecoveryDeps = {
  ...lifecycleDeps,
  payments: new PaymentRepository(documentClient, serviceConfig.ORDERS_TABLE),
  settings: { ...lifecycleDeps.settings, leaseMs: paymentConfig.PAYMENT_LEASE_SECONDS * 1000 },
};
