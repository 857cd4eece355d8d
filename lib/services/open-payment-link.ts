import type { PlatformPrincipal } from '../auth/principal.js';
import type { PaymentLink } from '../domain/payment-link.js';
import { NotFoundError, PaymentLinkInactiveError, PaymentStateConflictError } from '../errors.js';
import { ConditionFailed } from '../repositories/dynamo.js';
import type { SessionRepository } from '../repositories/session-repository.js';
import { loadStanding } from './enablement.js';
import { createHostedSession } from './hosted-sessions.js';
import { createOrder } from './orders.js';
import { currentState, isPaid, type PaymentLinkDeps } from './payment-links.js';

export interface OpenPaymentLinkDeps extends PaymentLinkDeps {
  sessions: SessionRepository;
  sessionTtlSeconds: number;
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
 * to anyone (no session, no reference leaves the service), so it can never be paid.
 */
export async function openPaymentLink(deps: OpenPaymentLinkDeps, linkRef: string, baseUrl: string): Promise<{ checkoutUrl: string; link: PaymentLink }> {
  let link = await deps.links.get(linkRef);
  if (!link) throw new NotFoundError();
  await assertActive(deps, link);
  if (!link.orderRef) link = await attachOrder(deps, link);
  try {
    const session = await createHostedSession(
      { orders: deps.orders, config: deps.config, sessions: deps.sessions, ttlSeconds: deps.sessionTtlSeconds },
      LINK_OPENER,
      link.outletId,
      link.orderRef!,
      baseUrl,
    );
    return { checkoutUrl: session.checkoutUrl, link };
  } catch (error) {
    // The order ended between our read and the session: paid (the link is PAID now) or failed.
    if (!(error instanceof PaymentStateConflictError)) throw error;
    const found = await deps.orders.get(link.orderRef!);
    throw new PaymentLinkInactiveError(isPaid(found?.payments ?? []) ? 'PAID' : 'UNAVAILABLE', { cause: error });
  }
}

/** Active, and its merchant still takes Click to Pay (the tenant may have switched it off since the link was made). */
async function assertActive(deps: OpenPaymentLinkDeps, link: PaymentLink): Promise<void> {
  const [state, { enablement }] = await Promise.all([currentState(deps, link), loadStanding(deps.config, link.tenantRef, link.merchantRef)]);
  if (state !== 'ACTIVE') throw new PaymentLinkInactiveError(state);
  if (!enablement.clickToPay) throw new PaymentLinkInactiveError('DISABLED');
}

async function attachOrder(deps: OpenPaymentLinkDeps, link: PaymentLink): Promise<PaymentLink> {
  let order;
  try {
    order = await createOrder({ config: deps.config, orders: deps.orders }, LINK_OPENER, link.outletId, {
      action: link.action,
      amount: link.amount,
      ...(link.merchantOrderReference !== undefined ? { merchantOrderReference: link.merchantOrderReference } : {}),
      linkRef: link.linkRef,
    });
  } catch (error) {
    // The outlet is gone (the merchant was re-onboarded without it): the link cannot be paid.
    if (error instanceof NotFoundError) throw new PaymentLinkInactiveError('UNAVAILABLE', { cause: error });
    throw error;
  }
  try {
    await deps.links.attachOrder(link.linkRef, order.orderRef);
    return { ...link, orderRef: order.orderRef };
  } catch (error) {
    if (!(error instanceof ConditionFailed)) throw error;
    const now = await deps.links.get(link.linkRef);
    if (now?.orderRef) return now; // another open won: its order is the link's
    throw new PaymentLinkInactiveError('CANCELLED', { cause: error });
  }
}
