import { currentPayment, type Payment } from '../api.js';
import { toMajor } from '../format.js';
import { paymentErrorNotice, TEXT } from '../messages.js';
import { isSdkError } from '../sdk/index.js';
import { ready, type FlowContext } from './context.js';
import { expire, initSdk } from './session.js';

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
    const payment = await session.api.payWithClickToPay(context.outletId, context.orderRef, paymentRef, checkoutResponse);
    store.dispatch({ type: 'paymentUpdated', payment });
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
    ctx.store.dispatch({ type: 'paymentUpdated', payment: await session.api.completeThreeDs(context.outletId, context.orderRef, paymentRef, cres) });
  } catch (error) {
    await paymentError(ctx, error);
  }
}

async function paymentError(ctx: FlowContext, error: unknown, cardId?: string): Promise<void> {
  const mapped = paymentErrorNotice(error);
  if (mapped.expired) return expire(ctx);
  // Whatever the error, the order knows the truth: a final state wins over the error text.
  const latest = await refreshPayment(ctx);
  if (latest && latest.state !== 'STARTED') return ctx.store.dispatch({ type: 'paymentUpdated', payment: latest });
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
