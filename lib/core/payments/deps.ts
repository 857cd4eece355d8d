import type { PaymentRepresentation } from '../ports/representation.js';

import type { Logger } from '../ports/logger.js';

import type { StandingSource } from '../merchants/standing-cache.js';

import type { MerchantEnvironment } from '../domain/merchant.js';
import type { AuthorizerSource } from '../ports/authorizer.js';
import type { ThreeDsServer } from '../ports/three-ds-server.js';
import type { LinkGuard } from '../links/link-cancellation.js';
import type { KeyVault } from '../ports/key-vault.js';
import type { ConfigStore } from '../ports/config-store.js';
import type { OrderStore, PaymentReadAhead } from '../ports/order-store.js';
import type { PaymentStore } from '../ports/payment-store.js';
import type { ReplayStore } from '../ports/replay-store.js';
import type { NetworkKeys } from '../ports/network-keys.js';

/** Everything the payment use cases need, passed in (ports and adapters). */
export interface PaymentDeps {
  config: ConfigStore;
  /** The merchant's standing, cached in the warm function within a staleness bound. */
  standing: StandingSource;
  orders: OrderStore;
  payments: PaymentStore;
  /** The payment link an order belongs to: a cancelled link's order is not paid (link-cancellation.ts). */
  links: LinkGuard;
  replay: ReplayStore;
  keys: KeyVault;
  networks: NetworkKeys;
  /** The merchant's acquirer: sandbox merchants never reach a real one, production merchants their own processor. */
  authorizers: AuthorizerSource;
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
  /** How a payment is shown in the events its writes announce (the edge's payment resource). */
  represent: PaymentRepresentation;
}

/** Per-request facts: where links point, who pays from where, where to log. */
export interface RequestFacts {
  baseUrl: string;
  payerIp: string | undefined;
  logger: Logger;
  /** The order and payment already read with the hosted session (lib/http/api-handler.ts `readAhead`). */
  readAhead?: PaymentReadAhead | undefined;
}
