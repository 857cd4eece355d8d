import type { Principal } from '../auth/principal.js';
import { hashSessionToken, newSessionToken } from '../auth/session-token.js';
import type { HostedSession } from '../domain/hosted-session.js';
import type { Order } from '../domain/order.js';
import { retryRefusal } from '../domain/payment-retry.js';
import { isPaid, type Payment } from '../domain/payment.js';
import { PaymentStateConflictError } from '../errors.js';

import { assertLinkNotCancelled, type LinkReader } from '../links/link-cancellation.js';
import { orderInScope } from './order-scope.js';
import type { ConfigStore } from '../ports/config-store.js';
import type { OrderStore } from '../ports/order-store.js';
import type { SessionStore } from '../ports/session-store.js';

/** What minting a session needs: where to keep it and for how long. */
export interface SessionMintDeps {
  sessions: Pick<SessionStore, 'create'>;
  ttlSeconds: number;
  now: () => number;
}

export interface HostedSessionDeps extends SessionMintDeps {
  orders: OrderStore;
  config: Pick<ConfigStore, 'getMerchant'>;
  /** The order's payment link, if it has one: a cancelled link's order gets no session. */
  links: LinkReader;
}

export interface MintedSession {
  sessionToken: string;
  expiresAt: string;
  checkoutUrl: string;
}

/**
 * 4.9: a hosted-session token for one order. The token is returned once and only its
 * SHA-256 is stored. An order that is paid, or failed for good, or whose payment link was
 * cancelled, gets no new session (409); one whose last payment was declined with a retryable
 * code does (the page offers another card).
 */
export async function createHostedSession(
  deps: HostedSessionDeps,
  principal: Principal,
  outletId: string,
  orderRef: string,
  baseUrl: string,
): Promise<MintedSession> {
  const { order, payments } = await orderInScope(deps, principal, outletId, orderRef);
  if (!payable(payments)) throw new PaymentStateConflictError('This order is already completed.');
  await assertLinkNotCancelled(deps.links, order);
  const merchant = await deps.config.getMerchant(order.merchantRef);
  return mintHostedSession(deps, order, merchant?.dpaName, baseUrl);
}

/** Something can still be paid: a payment not yet final, or a retry allowed after a decline. */
function payable(payments: Payment[]): boolean {
  if (isPaid(payments)) return false;
  if (payments.some((payment) => payment.state !== 'FAILED')) return true;
  return retryRefusal(payments) === undefined;
}

/**
 * The one way a session is made (4.9, and 4.8 when the order has a returnUrl). The session
 * item carries the order's return and cancel URLs, its payment link's description and the
 * shop's name for the page.
 */
export async function mintHostedSession(deps: SessionMintDeps, order: Order, shopName: string | undefined, baseUrl: string): Promise<MintedSession> {
  const token = newSessionToken();
  const now = deps.now();
  const expiresAt = Math.floor(now / 1000) + deps.ttlSeconds;
  const session: HostedSession = {
    tokenHash: hashSessionToken(token),
    orderRef: order.orderRef,
    outletId: order.outletId,
    merchantRef: order.merchantRef,
    tenantRef: order.tenantRef,
    expiresAt,
    createdAt: new Date(now).toISOString(),
    ...(order.returnUrl ? { returnUrl: order.returnUrl } : {}),
    ...(order.cancelUrl ? { cancelUrl: order.cancelUrl } : {}),
    ...(shopName ? { shopName } : {}),
    ...(order.description ? { description: order.description } : {}),
  };
  await deps.sessions.create(session);
  return {
    sessionToken: token,
    expiresAt: new Date(expiresAt * 1000).toISOString(),
    checkoutUrl: `${baseUrl}/checkout?session=${encodeURIComponent(token)}`,
  };
}
