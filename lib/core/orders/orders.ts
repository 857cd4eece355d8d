import { randomUUID } from 'node:crypto';
import type { Principal } from '../auth/principal.js';
import { orderState, type Amount, type Order, type OrderAction, type OrderView } from '../domain/order.js';
import { offeredMethods } from '../domain/payment-methods.js';
import { inAttemptOrder } from '../domain/payment-retry.js';
import type { Payment } from '../domain/payment.js';
import type { PaymentRepresentation } from '../ports/representation.js';
import { allowedRedirectUrl } from '../domain/redirect-url.js';

import { loadStanding } from '../merchants/enablement.js';
import { mintHostedSession, type SessionMintDeps } from './hosted-sessions.js';
import { orderInScope } from './order-scope.js';
import { outletInScope } from '../merchants/outlets.js';
import type { ConfigStore } from '../ports/config-store.js';
import type { OrderStore } from '../ports/order-store.js';

export interface OrderDeps {
  config: ConfigStore;
  orders: OrderStore;
  now: () => number;
  /** How an order's payments are shown (the edge's payment resource). */
  represent: PaymentRepresentation;
}

/**
 * 4.8 also mints the hosted session of an order with a returnUrl: where to keep it, for how
 * long, and the page's base URL. Needed only by callers that pass a returnUrl.
 */
export interface CreateOrderDeps extends OrderDeps {
  checkout?: SessionMintDeps & { baseUrl: string };
}

export interface CreateOrderInput {
  action: OrderAction;
  amount: Amount;
  merchantOrderReference?: string;
  emailAddress?: string;
  /** Hosted payment page: must point to one of the merchant's redirectOrigins (else 422 INVALID_REDIRECT_URL). */
  returnUrl?: string;
  /** Only together with returnUrl (the schema refuses it alone); absent, "Cancel" goes to returnUrl. */
  cancelUrl?: string;
  /** Set only by a payment link's first open (lib/core/links/open-payment-link.ts), never by a request body. */
  linkRef?: string;
  /** The link's description, for the hosted page; set only with linkRef. */
  description?: string;
}

/** The 201 of 4.8: the order, plus the hosted payment page when the order has a returnUrl. */
export type CreatedOrder = OrderView & { checkoutUrl?: string; checkoutExpiresAt?: string };

/**
 * 4.8: an order with its first payment, STARTED. With a returnUrl (hosted payment page) the
 * return and cancel URLs are checked against the merchant's redirectOrigins and a hosted
 * session is minted in the same call (as 4.9 would). Also what a payment link calls on its
 * first open (with the link's returnUrl).
 */
export async function createOrder(deps: CreateOrderDeps, principal: Principal, outletId: string, input: CreateOrderInput): Promise<CreatedOrder> {
  if (input.returnUrl && !deps.checkout) throw new Error('createOrder: a returnUrl needs deps.checkout to mint the hosted session');
  const outlet = await outletInScope(deps.config, principal, outletId);
  const merchant = input.returnUrl || input.cancelUrl ? await deps.config.getMerchant(outlet.merchantRef) : undefined;
  const origins = merchant?.redirectOrigins ?? [];
  const { returnUrl, cancelUrl, ...rest } = input;
  const createdAt = new Date(deps.now()).toISOString();
  const order: Order = {
    orderRef: randomUUID(),
    outletId,
    merchantRef: outlet.merchantRef,
    tenantRef: outlet.tenantRef,
    ...rest,
    ...(returnUrl !== undefined ? { returnUrl: allowedRedirectUrl('returnUrl', returnUrl, origins) } : {}),
    ...(cancelUrl !== undefined ? { cancelUrl: allowedRedirectUrl('cancelUrl', cancelUrl, origins) } : {}),
    createdAt,
  };
  const payment: Payment = {
    paymentRef: randomUUID(),
    orderRef: order.orderRef,
    outletId,
    state: 'STARTED',
    amount: input.amount,
    version: 1,
    createdAt,
    updatedAt: createdAt,
  };
  await deps.orders.create(order, payment);
  const view = await orderView(deps, order, [payment]);
  if (!order.returnUrl || !deps.checkout) return view;
  const session = await mintHostedSession(deps.checkout, order, merchant?.dpaName, deps.checkout.baseUrl);
  return { ...view, checkoutUrl: session.checkoutUrl, checkoutExpiresAt: session.expiresAt };
}

/** GET order: current state, payments, and the methods offered right now. */
export async function readOrder(deps: OrderDeps, principal: Principal, outletId: string, orderRef: string): Promise<OrderView> {
  const { order, payments } = await orderInScope(deps, principal, outletId, orderRef);
  return orderView(deps, order, payments);
}

/** The order resource of 4.8; payments first attempt first, so a retry's new payment is last. */
export async function orderView(deps: Pick<OrderDeps, 'config' | 'represent'>, order: Order, payments: Payment[]): Promise<OrderView> {
  const { enablement } = await loadStanding(deps.config, order.tenantRef, order.merchantRef);
  return {
    orderRef: order.orderRef,
    outletId: order.outletId,
    action: order.action,
    amount: order.amount,
    ...(order.merchantOrderReference ? { merchantOrderReference: order.merchantOrderReference } : {}),
    ...(order.emailAddress ? { emailAddress: order.emailAddress } : {}),
    ...(order.returnUrl ? { returnUrl: order.returnUrl } : {}),
    ...(order.cancelUrl ? { cancelUrl: order.cancelUrl } : {}),
    state: orderState(payments),
    paymentMethods: offeredMethods(enablement),
    payments: inAttemptOrder(payments).map(deps.represent),
    createdAt: order.createdAt,
  };
}
