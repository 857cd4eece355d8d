import './logging.js'; // the configured log level, before anything logs
import '../adapters/metrics/emf-recorder.js'; // installs the EMF adapter behind the metrics port (flushed by the edge)
import { AccessTokenVerifier } from '../core/auth/access-token.js';
import { Authenticator } from '../core/auth/authenticator.js';
import { documentClient } from './aws.js';
import { authConfig } from './config/auth-config.js';
import { serviceConfig } from './config/service-config.js';
import { JwksSource } from '../adapters/jwks/jwks-source.js';
import { ConfigRepository } from '../adapters/dynamodb/config-repository.js';
import { OrderRepository } from '../adapters/dynamodb/order-repository.js';
import { SessionRepository } from '../adapters/dynamodb/session-repository.js';
import { publicBaseUrl } from '../http/params.js';
import { toPaymentResource } from '../http/resources/payment-resource.js';
import type { ApiEvent } from '../http/types.js';
import { clock } from './clock.js';

/**
 * Composition root shared by every function: built once per cold start, reused by every
 * warm invocation. Payment-only pieces live in ./payments.ts so that config functions do
 * not load (or need permissions for) them.
 */

export const configRepository = new ConfigRepository(documentClient, serviceConfig.CONFIG_TABLE);
export const orderRepository = new OrderRepository(documentClient, serviceConfig.ORDERS_TABLE);
// The orders table too: payment routes read a session's order and payment beside it (findWithPayment).
export const sessionRepository = new SessionRepository(documentClient, serviceConfig.SESSIONS_TABLE, serviceConfig.ORDERS_TABLE);

export const authenticator = new Authenticator(
  new AccessTokenVerifier(new JwksSource(authConfig.AUTH_JWKS_URL), {
    issuer: authConfig.AUTH_ISSUER,
    audience: authConfig.AUTH_AUDIENCE,
    now: () => new Date(clock()),
  }),
  sessionRepository,
  clock,
);

/** Orders (4.8, GET order) and the sessions minted with them. */
export const orderDeps = { config: configRepository, orders: orderRepository, now: clock, represent: toPaymentResource };
export const sessionMintDeps = { sessions: sessionRepository, ttlSeconds: serviceConfig.SESSION_TTL_SECONDS, now: clock };
/** Platform and tenant payment methods (4.5, 4.6). */
export const paymentMethodsDeps = { config: configRepository, now: clock };

/** Where links we hand out point (PUBLIC_BASE_URL, else the API's own host: lib/http/params.ts). */
export const baseUrlOf = (event: ApiEvent): string => publicBaseUrl(event, serviceConfig.PUBLIC_BASE_URL);

export { clock };
