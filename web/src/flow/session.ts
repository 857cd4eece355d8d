import { ApiClient, ApiError, currentPayment, type EncryptionKeys, type MerchantConfig, type Order } from '../api.js';
import { forget } from '../bootstrap.js';
import { toMajor } from '../format.js';
import { TEXT, type Notice } from '../messages.js';
import { createClickToPaySdk, type ClickToPaySdk } from '../sdk/index.js';
import type { FlowContext } from './context.js';

/** Starting the page: the order, the merchant, the keys, then the Click to Pay SDK. */

export function expire(ctx: FlowContext): void {
  // An expired session is over for good; after a result a reload still shows the order's outcome.
  forget();
  ctx.store.dispatch({ type: 'expired' });
}

/** No such session (made up, mistyped, cut off): the link is not valid — not "expired", it never was. */
export function invalid(ctx: FlowContext): void {
  forget();
  ctx.store.dispatch({ type: 'invalid' });
}

export async function load(ctx: FlowContext): Promise<void> {
  const { boot, store } = ctx;
  if (!boot.ok) return boot.error === 'SESSION_EXPIRED' ? expire(ctx) : invalid(ctx);
  store.dispatch({ type: 'loading', label: 'Loading your payment…' });
  ctx.api ??= new ApiClient(boot.token);
  const api = ctx.api;
  const { context } = boot;
  let config: MerchantConfig;
  let keys: EncryptionKeys;
  let order: Order;
  try {
    [config, keys, order] = await Promise.all([api.merchantConfig(context.merchantRef), api.encryptionKeys(), api.order(context.outletId, context.orderRef)]);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return expire(ctx);
    if (error instanceof ApiError && error.status === 404) return invalid(ctx);
    if (error instanceof ApiError && error.code === 'CLICK_TO_PAY_NOT_ENABLED') return store.dispatch({ type: 'fatal', notice: TEXT.notEnabled });
    return store.dispatch({ type: 'fatal', notice: TEXT.loadFailed, retry: 'load' });
  }
  const payment = currentPayment(order);
  if (!payment) return store.dispatch({ type: 'fatal', notice: TEXT.loadFailed, retry: 'load' });
  store.dispatch({ type: 'orderLoaded', loaded: { context, config, keys, order, paymentRef: payment.paymentRef } });
  // A payment with an outcome (a reload after paying, a second tab): show it, never a new checkout.
  if (payment.state !== 'STARTED') return store.dispatch({ type: 'paymentUpdated', payment, onLoad: true });
  if (!config.clickToPayEnabled) return store.dispatch({ type: 'fatal', notice: TEXT.notEnabled });
  await initSdk(ctx);
}

/** A fresh SDK and the sign-in step; `then` says why the shopper is back there, if they are. */
export async function initSdk(ctx: FlowContext, then?: { status?: string; alert?: Notice }): Promise<void> {
  const loaded = ctx.store.getState().loaded;
  if (!loaded) return;
  ctx.store.dispatch({ type: 'loading', label: 'Connecting to Click to Pay…' });
  let instance: ClickToPaySdk;
  try {
    instance = await createClickToPaySdk(loaded.config.environment, loaded.config.cardBrands, loaded.context.sdkUrls);
    await instance.init({
      dpaId: loaded.config.dpaId,
      dpaClientId: loaded.config.dpaClientId,
      dpaName: loaded.config.dpaName,
      cardBrands: loaded.config.cardBrands,
      locale: loaded.config.locale,
      amount: { value: toMajor(loaded.order.amount), currencyCode: loaded.order.amount.currencyCode },
      serviceEncryptionKey: loaded.keys.keys.find((k) => k.kid === loaded.keys.encryptionKeyId) ?? loaded.keys.keys.find((k) => k.status === 'current'),
    });
  } catch {
    ctx.sdk = undefined;
    return ctx.store.dispatch({ type: 'fatal', notice: TEXT.sdkInit, retry: 'init' });
  }
  ctx.sdk = instance;
  ctx.store.dispatch({ type: 'sdkReady', ...(then?.status ? { status: then.status } : {}), ...(then?.alert ? { alert: then.alert } : {}) });
}
