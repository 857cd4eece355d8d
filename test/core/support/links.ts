import { hashSessionToken } from '../../../lib/core/auth/session-token.js';
import { openPaymentLink, type OpenPaymentLinkDeps } from '../../../lib/core/links/open-payment-link.js';
import { cancelPaymentLink, createPaymentLink, type CreatePaymentLinkInput, type PaymentLinkDeps } from '../../../lib/core/links/payment-links.js';
import { BASE_URL, OUTLET, platform, represent, type CoreWorld } from './world.js';

export function linkDeps(world: CoreWorld): OpenPaymentLinkDeps & PaymentLinkDeps {
  const { stores, clock } = world;
  return { config: stores.config, orders: stores.orders, links: stores.links, sessions: stores.sessions, sessionTtlSeconds: 900, now: clock.now, represent };
}

export function newLink(world: CoreWorld, input: Partial<CreatePaymentLinkInput> = {}) {
  return createPaymentLink(linkDeps(world), platform, OUTLET, { action: 'AUTH', amount: { currencyCode: 'AED', value: 5_000 }, ...input }, BASE_URL);
}

/** Opens the link as the public page does; answers the order and the session its checkout URL carries. */
export async function openLink(world: CoreWorld, linkRef: string) {
  const opened = await openPaymentLink(linkDeps(world), linkRef, BASE_URL);
  const token = new URL(opened.checkoutUrl).searchParams.get('session')!;
  const session = (await world.stores.sessions.findByTokenHash(hashSessionToken(token)))!;
  const order = (await world.stores.orders.get(session.orderRef))!;
  return {
    ...opened,
    session,
    order: order.order,
    payment: order.payments[0]!,
    ids: { outletId: OUTLET, orderRef: order.order.orderRef, paymentRef: order.payments[0]!.paymentRef },
  };
}

export const cancelLink = (world: CoreWorld, linkRef: string, idempotencyKey?: string) =>
  cancelPaymentLink(linkDeps(world), platform, OUTLET, linkRef, BASE_URL, idempotencyKey);
