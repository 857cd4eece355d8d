import { StoreConflictError } from '../ports/store-conflict.js';
import type { Principal } from '../auth/principal.js';
import { coversOutlet } from '../auth/scope.js';
import type { Amount, OrderAction } from '../domain/order.js';
import { isPaid } from '../domain/payment.js';
import { linkExpiry, linkState, newLinkRef, toLinkView, type PaymentLink, type PaymentLinkView } from '../domain/payment-link.js';
import { ClickToPayNotEnabledError, InvalidRequestError, NotFoundError, PaymentStateConflictError } from '../errors.js';
import { allowedRedirectUrl } from '../domain/redirect-url.js';

import { loadStanding } from '../merchants/enablement.js';
import { paymentUnderWay } from './link-cancellation.js';
import { outletInScope } from '../merchants/outlets.js';
import type { ConfigStore } from '../ports/config-store.js';
import type { OrderStore } from '../ports/order-store.js';
import type { LinkStore } from '../ports/link-store.js';

export interface PaymentLinkDeps {
  config: ConfigStore;
  orders: OrderStore;
  links: LinkStore;
  now: () => number;
}

export interface CreatePaymentLinkInput {
  action: OrderAction;
  amount: Amount;
  description?: string;
  merchantOrderReference?: string;
  expiresAt?: string;
  returnUrl?: string;
}

/**
 * 4.14 create. Only while Click to Pay is effectively on for the outlet's merchant (platform ∧
 * tenant ∧ onboarded): the tenant switch of 4.6 is what turns link generation on.
 */
export async function createPaymentLink(deps: PaymentLinkDeps, principal: Principal, outletId: string, input: CreatePaymentLinkInput, baseUrl: string): Promise<PaymentLinkView> {
  const outlet = await outletInScope(deps.config, principal, outletId);
  const now = deps.now();
  const expiry = linkExpiry(input.expiresAt, now);
  if ('problem' in expiry) {
    const message = expiry.problem === 'past' ? 'Must be in the future' : 'Must be at most 30 days from now';
    throw new InvalidRequestError('The request is invalid.', { errors: [{ path: 'expiresAt', message }] });
  }
  const { merchant, enablement } = await loadStanding(deps.config, outlet.tenantRef, outlet.merchantRef);
  if (!enablement.clickToPay || !merchant) throw new ClickToPayNotEnabledError();
  const returnUrl = input.returnUrl === undefined ? undefined : allowedRedirectUrl('returnUrl', input.returnUrl, merchant.redirectOrigins ?? []);
  const link: PaymentLink = {
    linkRef: newLinkRef(),
    outletId,
    merchantRef: outlet.merchantRef,
    tenantRef: outlet.tenantRef,
    action: input.action,
    amount: input.amount,
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.merchantOrderReference !== undefined ? { merchantOrderReference: input.merchantOrderReference } : {}),
    ...(returnUrl !== undefined ? { returnUrl } : {}),
    expiresAt: expiry.expiresAt,
    createdAt: new Date(now).toISOString(),
  };
  await deps.links.create(link);
  return toLinkView(link, 'ACTIVE', baseUrl);
}

/** 4.14 GET: the link with its state as of now (expiry applies lazily, PAID comes from its order). */
export async function readPaymentLink(deps: PaymentLinkDeps, principal: Principal, outletId: string, linkRef: string, baseUrl: string): Promise<PaymentLinkView> {
  const link = await linkInScope(deps, principal, outletId, linkRef);
  return toLinkView(link, await currentState(deps, link), baseUrl);
}

/**
 * 4.14 cancel: only from ACTIVE (409 otherwise); one conditional write, so a race cancels once.
 * Not while a payment of the link's order is in flight (409): the acquirer may be answering.
 * That is checked again after the write, since a payment may have taken its lease in
 * between; then the cancel is undone (the payment checks the link after its lease, so one of the
 * two always sees the other: link-cancellation.ts).
 */
export async function cancelPaymentLink(deps: PaymentLinkDeps, principal: Principal, outletId: string, linkRef: string, baseUrl: string): Promise<PaymentLinkView> {
  const link = await linkInScope(deps, principal, outletId, linkRef);
  if ((await currentState(deps, link)) !== 'ACTIVE') throw new PaymentStateConflictError('Only an active payment link can be cancelled.');
  if (await paymentOfLinkUnderWay(deps, link.orderRef)) throw new PaymentStateConflictError(UNDER_WAY);
  const at = new Date(deps.now()).toISOString();
  let cancelled: PaymentLink;
  try {
    cancelled = await deps.links.cancel(linkRef, at);
  } catch (error) {
    if (error instanceof StoreConflictError) throw new PaymentStateConflictError('Only an active payment link can be cancelled.', { cause: error });
    throw error;
  }
  if (await paymentOfLinkUnderWay(deps, cancelled.orderRef)) {
    await deps.links.undoCancel(linkRef, at);
    throw new PaymentStateConflictError(UNDER_WAY);
  }
  return toLinkView(cancelled, 'CANCELLED', baseUrl);
}

const UNDER_WAY = 'A payment of this link is under way; it cannot be cancelled now.';

async function paymentOfLinkUnderWay(deps: Pick<PaymentLinkDeps, 'orders'>, orderRef: string | undefined): Promise<boolean> {
  if (!orderRef) return false;
  return paymentUnderWay((await deps.orders.get(orderRef))?.payments ?? []);
}

/** Another tenant's (or outlet's) link answers 404, exactly like one that does not exist. */
async function linkInScope(deps: PaymentLinkDeps, principal: Principal, outletId: string, linkRef: string): Promise<PaymentLink> {
  const link = await deps.links.get(linkRef);
  if (!link || link.outletId !== outletId || !coversOutlet(principal, link)) throw new NotFoundError();
  return link;
}

export async function currentState(deps: Pick<PaymentLinkDeps, 'orders' | 'now'>, link: PaymentLink) {
  const found = link.orderRef ? await deps.orders.get(link.orderRef) : undefined;
  return linkState(link, isPaid(found?.payments ?? []), deps.now());
}

