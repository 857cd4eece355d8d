import { createHash, randomUUID } from 'node:crypto';
import { idempotencyScope } from '../auth/caller-scope.js';
import { StoreConflictError } from '../ports/store-conflict.js';
import type { Principal } from '../auth/principal.js';
import { coversOutlet } from '../auth/scope.js';
import type { Amount, OrderAction } from '../domain/order.js';
import { isPaid } from '../domain/payment.js';
import { linkExpiry, linkState, newLinkRef, toLinkView, type PaymentLink, type PaymentLinkState, type PaymentLinkView } from '../domain/payment-link.js';
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
export async function createPaymentLink(
  deps: PaymentLinkDeps,
  principal: Principal,
  outletId: string,
  input: CreatePaymentLinkInput,
  baseUrl: string,
): Promise<PaymentLinkView> {
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
export async function readPaymentLink(
  deps: PaymentLinkDeps,
  principal: Principal,
  outletId: string,
  linkRef: string,
  baseUrl: string,
): Promise<PaymentLinkView> {
  const link = await linkInScope(deps, principal, outletId, linkRef);
  return toLinkView(link, await currentState(deps, link), baseUrl);
}

/**
 * 4.14 cancel: only from ACTIVE (409 naming the link's state otherwise); one conditional write,
 * so a race cancels once. Not while a payment of the link's order is in flight (409): the
 * acquirer may be answering. That is checked again after the write, since a payment may have
 * taken its lease in between; then the cancel is undone (409) — unless that payment saw the
 * cancel first and made it final, and then the cancel stands (200): link-cancellation.ts. So
 * each side's answer is true of what the link ends as.
 *
 * The cancel's write carries the request's own id (`cancelId`: random, or derived from its
 * Idempotency-Key), so a cancel whose write landed while its answer was lost — the SDK's retry
 * met it, or the request answered 503 and comes back with the same key — carries on as that
 * cancel (re-check, then 200) instead of answering that the link is not active.
 */
export async function cancelPaymentLink(
  deps: PaymentLinkDeps,
  principal: Principal,
  outletId: string,
  linkRef: string,
  baseUrl: string,
  idempotencyKey?: string,
): Promise<PaymentLinkView> {
  const link = await linkInScope(deps, principal, outletId, linkRef);
  const cancelId = cancelIdOf(principal, linkRef, idempotencyKey);
  const cancelled = link.cancelledAt && link.cancelId === cancelId ? link : await writeCancel(deps, link, cancelId);
  const order = cancelled.orderRef ? await deps.orders.get(cancelled.orderRef) : undefined;
  if (paymentUnderWay(order?.payments ?? []) && (await deps.links.undoCancel(linkRef, cancelId)) === 'undone') {
    throw new PaymentStateConflictError(isPaid(order?.payments ?? []) ? NOT_ACTIVE.PAID : UNDER_WAY);
  }
  return toLinkView(cancelled, 'CANCELLED', baseUrl);
}

async function writeCancel(deps: PaymentLinkDeps, link: PaymentLink, cancelId: string): Promise<PaymentLink> {
  const state = await currentState(deps, link);
  if (state !== 'ACTIVE') throw new PaymentStateConflictError(NOT_ACTIVE[state]);
  if (await paymentOfLinkUnderWay(deps, link.orderRef)) throw new PaymentStateConflictError(UNDER_WAY);
  try {
    return await deps.links.cancel(link.linkRef, new Date(deps.now()).toISOString(), cancelId);
  } catch (error) {
    if (!(error instanceof StoreConflictError)) throw error;
    const now = (error.current as PaymentLink | undefined) ?? (await deps.links.get(link.linkRef));
    if (now?.cancelledAt && now.cancelId === cancelId) return now; // our own write, met by the SDK's retry
    // Another cancel won, the link was paid meanwhile, or it expired by the time of the write.
    const after = now ? await currentState(deps, now) : 'CANCELLED';
    throw new PaymentStateConflictError(NOT_ACTIVE[after], { cause: error });
  }
}

/** The 409 of a cancel on a link that is not ACTIVE: what the link is. */
const NOT_ACTIVE: Record<PaymentLinkState, string> = {
  ACTIVE: 'Only an active payment link can be cancelled.', // a write refused at the moment of expiry
  PAID: 'The payment link has been paid; only an active payment link can be cancelled.',
  CANCELLED: 'The payment link is already cancelled.',
  EXPIRED: 'The payment link has expired; only an active payment link can be cancelled.',
};
const UNDER_WAY = 'A payment of this link is under way; it cannot be cancelled now.';

/**
 * The cancel request's id: derived from its Idempotency-Key (scope, key, link) when it has one,
 * so a retry after a 5xx recognises the cancel it wrote; random otherwise.
 */
function cancelIdOf(principal: Principal, linkRef: string, idempotencyKey: string | undefined): string {
  if (idempotencyKey === undefined) return randomUUID();
  return createHash('sha256')
    .update(JSON.stringify([idempotencyScope(principal), idempotencyKey, 'CANCEL_PAYMENT_LINK', linkRef]))
    .digest('hex')
    .slice(0, 32);
}

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
