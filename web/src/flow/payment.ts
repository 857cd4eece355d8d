import { ApiError, currentPayment, type Order, type Payment } from '../api.js';
import { toMajor } from '../format.js';
import { paymentErrorNotice, TEXT } from '../messages.js';
import { isSdkError } from '../sdk/index.js';
import { ready, type FlowContext } from './context.js';
import { settle } from './leave.js';
import { isRetryable } from './reducer.js';
import { expire, initSdk } from './session.js';
import { collectBrowserInfo } from '../three-ds-browser.js';

/** Paying: Click to Pay checkout, the service's authorization, the issuer's 3DS challenge. */

export async function pay(ctx: FlowContext, cardId: string): Promise<void> {
  const { sdk, store } = ctx;
  const session = ready(ctx);
  if (!sdk || !session) return;
  const { order } = session.loaded;
  store.dispatch({ type: 'paymentStarted', label: 'Confirming with Click to Pay…' });
  let checkoutResponse: Record<string, unknown>;
  try {
    checkoutResponse = await sdk.checkout({ srcDigitalCardId: cardId, amount: { value: toMajor(order.amount), currencyCode: order.amount.currencyCode } });
  } catch (error) {
    if (isSdkError(error) && error.reason === 'NOT_AUTHENTICATED') return initSdk(ctx, { alert: TEXT.sessionLost });
    if (isSdkError(error) && error.reason === 'CHECKOUT_ABANDONED') return store.dispatch({ type: 'cardsShown', alert: TEXT.checkoutAbandoned });
    return store.dispatch({ type: 'cardsShown', alert: TEXT.checkoutFailed });
  }
  store.dispatch({ type: 'processing', label: 'Authorising your payment…' });
  const { context, paymentRef } = session.loaded;
  try {
    const browserInfo = collectBrowserInfo(context.acceptHeader);
    settle(ctx, await session.api.payWithClickToPay(context.outletId, context.orderRef, paymentRef, checkoutResponse, browserInfo));
  } catch (error) {
    await paymentError(ctx, error, cardId);
  }
}

export async function completeThreeDs(ctx: FlowContext, cres: string): Promise<void> {
  const session = ready(ctx);
  if (!session) return;
  const { context, paymentRef } = session.loaded;
  ctx.store.dispatch({ type: 'processing', label: 'Completing verification…' });
  try {
    settle(ctx, await session.api.completeThreeDs(context.outletId, context.orderRef, paymentRef, cres));
  } catch (error) {
    await paymentError(ctx, error);
  }
}

/** After the 3DS Method (the page's hidden iframe): the AReq goes now; frictionless, challenge or refused. */
export async function continueThreeDs(ctx: FlowContext, threeDSCompInd: 'Y' | 'N'): Promise<void> {
  const session = ready(ctx);
  if (!session) return;
  const { context, paymentRef } = session.loaded;
  ctx.store.dispatch({ type: 'processing', label: 'Checking with your bank…' });
  try {
    const browserInfo = collectBrowserInfo(context.acceptHeader);
    settle(ctx, await session.api.continueThreeDs(context.outletId, context.orderRef, paymentRef, threeDSCompInd, browserInfo));
  } catch (error) {
    await paymentError(ctx, error);
  }
}

async function paymentError(ctx: FlowContext, error: unknown, cardId?: string): Promise<void> {
  const mapped = paymentErrorNotice(error);
  if (mapped.expired) return expire(ctx);
  // Whatever the error, the order knows the truth: a final state wins over the error text.
  const latest = await refreshPayment(ctx);
  if (latest && latest.state !== 'STARTED') return settle(ctx, latest);
  if (mapped.retry === 'none') return ctx.store.dispatch({ type: 'fatal', notice: mapped.notice });
  if (mapped.retry === 'choose-card' || !cardId) return ctx.store.dispatch({ type: 'cardsShown', alert: mapped.notice });
  ctx.store.dispatch({ type: 'paymentFailedToSend', notice: mapped.notice, cardId });
}

async function refreshPayment(ctx: FlowContext): Promise<Payment | undefined> {
  const session = ready(ctx);
  if (!session) return undefined;
  const { context, paymentRef } = session.loaded;
  try {
    const order = await session.api.order(context.outletId, context.orderRef);
    return order.payments.find((p) => p.paymentRef === paymentRef) ?? currentPayment(order);
  } catch {
    return undefined;
  }
}

/**
 * "Try another card" after a retryable decline: a new payment on the same order
 * (POST …/orders/{orderRef}/payments), then the cards again — or sign-in, when this page's
 * Click to Pay session is gone (a reload since the decline).
 */
export async function retryWithAnotherCard(ctx: FlowContext): Promise<void> {
  const { store } = ctx;
  const session = ready(ctx);
  const view = store.getState().view;
  if (!session || view.kind !== 'declined' || !isRetryable(view.payment)) return;
  const declined = view.payment;
  const { context } = session.loaded;
  store.dispatch({ type: 'processing', label: 'Preparing a new payment…' });
  let order: Order;
  try {
    order = await session.api.newPayment(context.outletId, context.orderRef, declined.paymentRef);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return expire(ctx);
    // Another tab may have retried or paid meanwhile: the order says what is true now.
    const current = await session.api.order(context.outletId, context.orderRef).catch(() => undefined);
    const last = current && currentPayment(current);
    if (!current || !last || last.paymentRef === declined.paymentRef)
      return store.dispatch({ type: 'retryFailed', payment: declined, alert: TEXT.retryFailed });
    if (last.state !== 'STARTED') return settle(ctx, last);
    order = current;
  }
  const next = currentPayment(order);
  if (next?.state !== 'STARTED') return store.dispatch({ type: 'retryFailed', payment: declined, alert: TEXT.retryFailed });
  store.dispatch({ type: 'paymentRetried', order, paymentRef: next.paymentRef });
  if (ctx.sdk && store.getState().cards.length > 0) return store.dispatch({ type: 'cardsShown' });
  await initSdk(ctx, { status: TEXT.chooseAnotherCard.body });
}
