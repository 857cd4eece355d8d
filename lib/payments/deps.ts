import type { PayloadKeyVault } from '../keys/payload-key-vault.js';
import type { Logger } from '../logger.js';
import type { ConfigRepository } from '../repositories/config-repository.js';
import type { StandingSource } from '../services/standing-cache.js';
import type { OrderRepository, PaymentReadAhead } from '../repositories/order-repository.js';
import type { PaymentRepository } from '../repositories/payment-repository.js';
import type { ReplayRepository } from '../repositories/replay-repository.js';
import type { NetworkKeyRing } from '../checkout/network-keys.js';
import type { MerchantEnvironment } from '../domain/merchant.js';
import type { Authorizer } from './authorizer.js';
import type { ThreeDsServer } from './three-ds-server.js';
import type { LinkGuard } from '../services/link-cancellation.js';

/** Everything the payment use cases need, passed in (ports and adapters). */
export interface PaymentDeps {
  config: ConfigRepository;
  /** The merchant's standing, cached in the warm function within a staleness bound. */
  standing: StandingSource;
  orders: OrderRepository;
  payments: PaymentRepository;
  /** The payment link an order belongs to: a cancelled link's order is not paid (link-cancellation.ts). */
  links: LinkGuard;
  replay: ReplayRepository;
  keys: PayloadKeyVault;
  networks: NetworkKeyRing;
  /** One acquirer per merchant environment: sandbox merchants never reach a real one, and back. */
  authorizers: Record<MerchantEnvironment, Authorizer>;
  /** Likewise for 3DS: the sandbox ACS for sandbox merchants only. */
  threeDsServers: Record<MerchantEnvironment, ThreeDsServer>;
  settings: {
    checkoutMaxAgeSeconds: number;
    authorizerTimeoutMs: number;
    leaseMs: number;
    /** After a timeout, how long a request may still be on its way to the acquirer. */
    inFlightMs: number;
    /** How long a payment waiting for 3DS keeps its JWE. */
    pendingThreeDsSeconds: number;
  };
  now: () => number;
}

/** Per-request facts: where links point, who pays from where, where to log. */
export interface RequestFacts {
  baseUrl: string;
  payerIp: string | undefined;
  logger: Logger;
  /** The order and payment already read with the hosted session (lib/http/api-handler.ts `readAhead`). */
  readAhead?: PaymentReadAhead | undefined;
}
