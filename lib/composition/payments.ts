import { documentClient } from './aws.js';
import { NetworkKeyRing } from '../adapters/jwks/network-key-ring.js';
import { checkoutConfig } from './config/checkout-config.js';
import { paymentConfig } from './config/payment-config.js';
import { serviceConfig } from './config/service-config.js';
import type { PaymentDeps } from '../core/payments/deps.js';
import { authorizersWith, productionAuthorizer, sandboxAuthorizer } from './acquirer-slots.js';
import { unconfiguredThreeDsServer } from '../core/ports/three-ds-server.js';
import { productionThreeDsServer, threeDsSettings } from './three-ds-server.js';
import { sandboxConfig } from './config/sandbox-config.js';
import { sandboxAcsRepository } from './sandbox.js';
import { SandboxThreeDsServer } from '../adapters/sandbox/sandbox-three-ds.js';
import { PaymentRepository } from '../adapters/dynamodb/payment-repository.js';
import { ReplayRepository } from '../adapters/dynamodb/replay-repository.js';
import { configRepository, orderRepository } from './core.js';
import { paymentLinkRepository } from './payment-links.js';
import { CachedStanding } from '../core/merchants/standing-cache.js';
import { payloadKeyVault } from './keys.js';
import { toPaymentResource } from '../http/resources/payment-resource.js';
import { clock } from './clock.js';

/**
 * The payment functions' dependencies, built once per cold start. Sandbox merchants are
 * authorized by the sandbox acquirer (SPEC §5); production merchants by the gateway's
 * acquirer, plugged in here through the same Authorizer port — until then, by one that
 * refuses every call (502, retryable), never by the sandbox.
 */
export const paymentRepository = new PaymentRepository(documentClient, serviceConfig.ORDERS_TABLE);
export const networkKeyRing = new NetworkKeyRing(checkoutConfig.NETWORK_JWKS_URLS);

/** How long a payment waiting for 3DS keeps its JWE, and the sandbox ACS its challenge. */
const PENDING_THREE_DS_SECONDS = 3600;

/**
 * Sandbox merchants step up at the sandbox ACS (SPEC §5), served from SANDBOX_ACS_BASE_URL
 * when set, where this stage serves the sandbox (none elsewhere: 502, retryable); production
 * merchants at the deployment's 3DS Server (THREE_DS_SERVER_URL, lib/composition/three-ds-server.ts)
 * through the same ThreeDsServer port — none configured: every production step-up is 502,
 * retryable (docs/integrating/three-ds.md).
 */
const sandboxThreeDsServer = sandboxAcsRepository
  ? new SandboxThreeDsServer(sandboxAcsRepository, { acsBaseUrl: sandboxConfig.SANDBOX_ACS_BASE_URL, ttlSeconds: PENDING_THREE_DS_SECONDS, now: clock })
  : unconfiguredThreeDsServer('this stage serves no sandbox (no SANDBOX_TABLE)');

/**
 * A production merchant's processor adapter, imported with the 3DS Server's adapter and the
 * secret source in one chunk at the first production payment (./payment-adapters.ts).
 */
const paymentAdapters = () => import('./payment-adapters.js');
const authorizers = authorizersWith({
  adyen: async (merchant) => (await paymentAdapters()).adyenAuthorizer(merchant),
  checkout_com: async (merchant) => (await paymentAdapters()).checkoutComAuthorizer(merchant),
});

export const paymentDeps: PaymentDeps = {
  config: configRepository,
  standing: new CachedStanding(configRepository, paymentConfig.CONFIG_CACHE_SECONDS * 1000, clock),
  orders: orderRepository,
  payments: paymentRepository,
  links: paymentLinkRepository,
  replay: new ReplayRepository(documentClient, serviceConfig.REPLAY_TABLE),
  keys: payloadKeyVault,
  networks: networkKeyRing,
  authorizers,
  threeDsServers: { sandbox: sandboxThreeDsServer, production: productionThreeDsServer },
  settings: {
    checkoutMaxAgeSeconds: checkoutConfig.CHECKOUT_MAX_AGE_SECONDS,
    authorizerTimeoutMs: paymentConfig.AUTHORIZER_TIMEOUT_MS,
    leaseMs: paymentConfig.PAYMENT_LEASE_SECONDS * 1000,
    // A request we gave up on could still land for about as long as we waited for it.
    inFlightMs: paymentConfig.AUTHORIZER_TIMEOUT_MS,
    pendingThreeDsSeconds: PENDING_THREE_DS_SECONDS,
    threeDs: threeDsSettings,
  },
  now: clock,
  represent: toPaymentResource,
};

export { productionAuthorizer, sandboxAuthorizer };
