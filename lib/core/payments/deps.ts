import type { PaymentRepresentation } from '../ports/representation.js';

import type { Logger } from '../ports/logger.js';

import type { StandingSource } from '../merchants/standing-cache.js';

import type { MerchantEnvironment } from '../domain/merchant.js';
import type { AuthorizerSource } from '../ports/authorizer.js';
import type { ThreeDsServer } from '../ports/three-ds-server.js';
import type { BrowserHeaders } from '../domain/browser-info.js';
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
    /** The 3DS Server calls' deadlines and the attempts a payment may start (docs/design/three-ds-server.md §2). */
    threeDs: ThreeDsSettings;
  };
  now: () => number;
  /** How a payment is shown in the events its writes announce (the edge's payment resource). */
  represent: PaymentRepresentation;
}

export interface ThreeDsSettings {
  /** preauth: cached card ranges, answers at once (3 s). */
  prepareTimeoutMs: number;
  /** auth: a little over the 3DS Server's own 10 s wait for the directory server (11 s). */
  authenticateTimeoutMs: number;
  /** postauth (the RReq; recovery): 3 s. */
  resultTimeoutMs: number;
  /** New attempts (transaction ids) one payment may start: a page cannot loop the 3DS Server. */
  maxAttempts: number;
}

/** Per-request facts: where links point, who pays from where, where to log. */
export interface RequestFacts {
  baseUrl: string;
  payerIp: string | undefined;
  /** The request's own User-Agent and Accept-Language (the AReq's browser fields, unless browserInfo gives them). */
  browserHeaders?: BrowserHeaders | undefined;
  logger: Logger;
  /** The order and payment already read with the hosted session (lib/http/api-handler.ts `readAhead`). */
  readAhead?: PaymentReadAhead | undefined;
}
