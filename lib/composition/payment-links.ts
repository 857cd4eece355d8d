import './logging.js'; // the configured log level, before anything logs
import { documentClient } from './aws.js';
import { serviceConfig } from './config/service-config.js';
import { PaymentLinkRepository } from '../adapters/dynamodb/payment-link-repository.js';
import type { OpenPaymentLinkDeps } from '../core/links/open-payment-link.js';
import type { PaymentLinkDeps } from '../core/links/payment-links.js';
import { configRepository, orderDeps, orderRepository, sessionMintDeps, sessionRepository } from './core.js';
import { clock } from './clock.js';

/** Payment links (SPEC 4.14): the API functions and the public /pay page. */
export const paymentLinkRepository = new PaymentLinkRepository(documentClient, serviceConfig.ORDERS_TABLE);

export const paymentLinkDeps: PaymentLinkDeps = { config: configRepository, orders: orderRepository, links: paymentLinkRepository, now: clock };

export const openPaymentLinkDeps: OpenPaymentLinkDeps = {
  ...paymentLinkDeps,
  sessions: sessionRepository,
  sessionTtlSeconds: serviceConfig.SESSION_TTL_SECONDS,
  represent: orderDeps.represent,
};

/** Hosted sessions (4.9) and payment retries: a cancelled link's order gets neither. */
export const hostedSessionDeps = { ...orderDeps, ...sessionMintDeps, links: paymentLinkRepository };
export const paymentRetryDeps = { ...orderDeps, links: paymentLinkRepository };
