import { documentClient } from '../aws/clients.js';
import { NetworkKeyRing } from '../checkout/network-keys.js';
import { paymentConfig } from '../config/payment-config.js';
import { serviceConfig } from '../config/service-config.js';
import type { PaymentDeps } from '../payments/deps.js';
import { SandboxAuthorizer } from '../payments/sandbox-authorizer.js';
import { PaymentRepository } from '../repositories/payment-repository.js';
import { ReplayRepository } from '../repositories/replay-repository.js';
import { configRepository, orderRepository } from './core.js';
import { payloadKeyVault } from './keys.js';

/**
 * The payment functions' dependencies, built once per cold start. The authorizer is the
 * sandbox one (SPEC §5); a production deployment plugs its acquirer in here through the
 * same Authorizer port.
 */
export const paymentRepository = new PaymentRepository(documentClient, serviceConfig.ORDERS_TABLE);
export const networkKeyRing = new NetworkKeyRing(paymentConfig.NETWORK_JWKS_URLS);
export const authorizer = new SandboxAuthorizer();

export const paymentDeps: PaymentDeps = {
  config: configRepository,
  orders: orderRepository,
  payments: paymentRepository,
  replay: new ReplayRepository(documentClient, serviceConfig.REPLAY_TABLE),
  keys: payloadKeyVault,
  networks: networkKeyRing,
  authorizer,
  settings: {
    checkoutMaxAgeSeconds: paymentConfig.CHECKOUT_MAX_AGE_SECONDS,
    authorizerTimeoutMs: paymentConfig.AUTHORIZER_TIMEOUT_MS,
    leaseMs: paymentConfig.PAYMENT_LEASE_SECONDS * 1000,
    pendingThreeDsSeconds: 3600,
  },
  now: Date.now,
};
