import { StoreConflictError } from '../ports/store-conflict.js';
import type { PlatformPrincipal } from '../auth/principal.js';
import type { PaymentLink } from '../domain/payment-link.js';
import { InvalidRedirectUrlError, NotFoundError, PaymentLinkInactiveError, PaymentStateConflictError } from '../errors.js';

import { loadStanding } from '../merchants/enablement.js';
import { createHostedSession } from '../orders/hosted-sessions.js';
import { createOrder, type CreateOrderInput } from '../orders/orders.js';
import { currentState, type PaymentLinkDeps } from './payment-links.js';
import type { SessionStore } from '../ports/session-store.js';
import type { PaymentRepresentation } from '../ports/representation.js';

export interface OpenPaymentLinkDeps extends PaymentLinkDeps {
  sessions: SessionStore;
  sessionTtlSeconds: number;
  /** How the link's order's payments are shown (createOrder answers the order). */
  represent: PaymentRepresentation;
}

/** The public page acts for the platform, on the one outlet the link belongs to. */
const LINK_OPENER: PlatformPrincipal = { kind: 'platform', subject: 'payment-link', permissions: new Set() };

/**
 * GET /pay/{linkRef} (SPEC 4.14): the link's one order — created on the first open, reused
 * while unpaid — and a fresh hosted session for it. Unknown → NotFoundError; expired,
 * cancelled or paid, or Click to Pay now off for its merchant → PaymentLinkInactiveError
 * (the page renders both as HTML).
 *
 * One order per link, even when two shoppers open it at once: each open that finds no order
 * creates one and tries to attach it with a conditional write (only if none is attached);
 * the loser re-reads the link and uses the winner's order. The loser's order is never handed
 * to anyone (no session token, no reference leaves the service), so it can never be paid.
 */
export async function openPaymentLink(deps: OpenPaymentLinkDeps, linkRef: string, baseUrl: string): Promise<{ checkoutUrl: string; link: PaymentLink }> {
  const found = await deps.links.get(linkRef);
  if (!found) throw new NotFoundError();
  await assertActive(deps, found);
  const { link, checkoutUrl } = found.orderRef ? { link: found, checkoutUrl: undefined } : await attachOrder(deps, found, baseUrl);
  if (checkoutUrl) return { checkoutUrl, link }; // the first open: createOrder minted the session with the order
  try {
    const session = await createHostedSession(
      { orders: deps.orders, config: deps.config, sessions: deps.sessions, links: deps.links, ttlSeconds: deps.sessionTtlSeconds, now: deps.now },
      LINK_OPENER,
      link.outletId,
      link.orderRef!,
      baseUrl,
    );
    return { checkoutUrl: session.checkoutUrl, link };
  } catch (error) {
    // The order cannot be paid any more: paid, cancelled (both since assertActive) or failed for good.
    if (!(error instanceof PaymentStateConflictError)) throw error;
    const now = (await deps.links.get(link.linkRef)) ?? link;
    const state = await currentState(deps, now);
    throw new PaymentLinkInactiveError(state === 'ACTIVE' ? 'UNAVAILABLE' : state, { cause: error });
  }
}

/** Active, and its merchant still takes Click to Pay (the tenant may have switched it off since the link was made). */
async function assertActive(deps: OpenPaymentLinkDeps, link: PaymentLink): Promise<void> {
  const [state, { enablement }] = await Promise.all([currentState(deps, link), loadStanding(deps.config, link.tenantRef, link.merchantRef)]);
  if (state !== 'ACTIVE') throw new PaymentLinkInactiveError(state);
  if (!enablement.clickToPay) throw new PaymentLinkInactiveError('DISABLED');
}

async function attachOrder(deps: OpenPaymentLinkDeps, link: PaymentLink, baseUrl: string): Promise<{ link: PaymentLink; checkoutUrl?: string }> {
  const input: CreateOrderInput = {
    action: link.action,
    amount: link.amount,
    ...(link.merchantOrderReference !== undefined ? { merchantOrderReference: link.merchantOrderReference } : {}),
    ...(link.description !== undefined ? { description: link.description } : {}),
    linkRef: link.linkRef,
  };
  const order = await createLinkOrder(deps, link, input, baseUrl);
  try {
    await deps.links.attachOrder(link.linkRef, order.orderRef);
    return { link: { ...link, orderRef: order.orderRef }, ...(order.checkoutUrl ? { checkoutUrl: order.checkoutUrl } : {}) };
  } catch (error) {
    if (!(error instanceof StoreConflictError)) throw error;
    const now = await deps.links.get(link.linkRef);
    if (now?.orderRef) return { link: now }; // another open won: its order is the link's
    throw new PaymentLinkInactiveError('CANCELLED', { cause: error });
  }
}

/**
 * The order, with the link's returnUrl (then createOrder mints its session too). A returnUrl the
 * merchant no longer allows (redirectOrigins changed since) is dropped rather than blocking the
 * payment: the shopper can still pay, the page just offers no way back.
 */
async function createLinkOrder(deps: OpenPaymentLinkDeps, link: PaymentLink, input: CreateOrderInput, baseUrl: string) {
  const orderDeps = {
    config: deps.config,
    orders: deps.orders,
    now: deps.now,
    represent: deps.represent,
    checkout: { sessions: deps.sessions, ttlSeconds: deps.sessionTtlSeconds, now: deps.now, baseUrl },
  };
  try {
    try {
      return await createOrder(orderDeps, LINK_OPENER, link.outletId, link.returnUrl ? { ...input, returnUrl: link.returnUrl } : input);
    } catch (error) {
      if (!(error instanceof InvalidRedirectUrlError)) throw error;
      return await createOrder(orderDeps, LINK_OPENER, link.outletId, input);
    }
  } catch (error) {
    // The outlet is gone (the merchant was re-onboarded without it): the link cannot be paid.
    if (error instanceof NotFoundError) throw new PaymentLinkInactiveError('UNAVAILABLE', { cause: error });
    throw error;
  }
}
