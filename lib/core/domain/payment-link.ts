import { randomBytes } from 'node:crypto';
import type { Amount, OrderAction } from './order.js';

export type PaymentLinkState = 'ACTIVE' | 'PAID' | 'EXPIRED' | 'CANCELLED';

/** SPEC 4.14. Stored as it was created; `state` is derived (linkState), never stored. */
export interface PaymentLink {
  linkRef: string;
  outletId: string;
  merchantRef: string;
  tenantRef: string;
  action: OrderAction;
  amount: Amount;
  description?: string;
  merchantOrderReference?: string;
  returnUrl?: string;
  /** ISO time after which the link no longer opens. */
  expiresAt: string;
  createdAt: string;
  /** Set once, by the first open that wins the conditional write (one order per link). */
  orderRef?: string;
  cancelledAt?: string;
  /** The cancel request that wrote `cancelledAt` (random, or derived from its Idempotency-Key). */
  cancelId?: string;
  /** Set by a payment that saw the cancel and gave up: from then on the cancel cannot be undone. */
  cancelFinalAt?: string;
}

export const LINK_DEFAULT_TTL_DAYS = 7;
export const LINK_MAX_TTL_DAYS = 30;
const DAY_MS = 86_400_000;

/**
 * `pl_` + 128 random bits in base64url (22 characters): unguessable (SPEC 4.14), and inside the
 * path-parameter alphabet every other ref uses.
 */
export function newLinkRef(): string {
  return `pl_${randomBytes(16).toString('base64url')}`;
}
export const LINK_REF = /^pl_[A-Za-z0-9_-]{22}$/;

export type ExpiryProblem = 'past' | 'too-far';

/** The expiry a new link gets: the default, or the requested one if it is in (now, now + 30 days]. */
export function linkExpiry(requested: string | undefined, now: number): { expiresAt: string } | { problem: ExpiryProblem } {
  if (requested === undefined) return { expiresAt: new Date(now + LINK_DEFAULT_TTL_DAYS * DAY_MS).toISOString() };
  const at = Date.parse(requested);
  if (at <= now) return { problem: 'past' };
  if (at > now + LINK_MAX_TTL_DAYS * DAY_MS) return { problem: 'too-far' };
  return { expiresAt: new Date(at).toISOString() };
}

/**
 * The link's state, derived when read: paid wins (money was taken, whatever happened to the
 * link since), then cancelled, then expired (lazily, by the clock). `paid` comes from the
 * link's order: a payment of it was authorised.
 */
export function linkState(link: Pick<PaymentLink, 'cancelledAt' | 'expiresAt'>, paid: boolean, now: number): PaymentLinkState {
  if (paid) return 'PAID';
  if (link.cancelledAt) return 'CANCELLED';
  if (Date.parse(link.expiresAt) <= now) return 'EXPIRED';
  return 'ACTIVE';
}

export interface PaymentLinkView {
  linkRef: string;
  url: string;
  state: PaymentLinkState;
  action: OrderAction;
  amount: Amount;
  description?: string;
  merchantOrderReference?: string;
  returnUrl?: string;
  orderRef?: string;
  expiresAt: string;
  createdAt: string;
}

export function toLinkView(link: PaymentLink, state: PaymentLinkState, baseUrl: string): PaymentLinkView {
  return {
    linkRef: link.linkRef,
    url: `${baseUrl}/pay/${link.linkRef}`,
    state,
    action: link.action,
    amount: link.amount,
    ...(link.description !== undefined ? { description: link.description } : {}),
    ...(link.merchantOrderReference !== undefined ? { merchantOrderReference: link.merchantOrderReference } : {}),
    ...(link.returnUrl !== undefined ? { returnUrl: link.returnUrl } : {}),
    ...(link.orderRef !== undefined ? { orderRef: link.orderRef } : {}),
    expiresAt: link.expiresAt,
    createdAt: link.createdAt,
  };
}
