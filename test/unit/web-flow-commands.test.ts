import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, type ApiClient, type Order, type Payment } from '../../web/src/api.js';
import type { SessionContext } from '../../web/src/bootstrap.js';
import type { FlowContext } from '../../web/src/flow/context.js';
import { leave, settle } from '../../web/src/flow/leave.js';
import { retryWithAnotherCard } from '../../web/src/flow/payment.js';
import { load } from '../../web/src/flow/session.js';
import { AUTO_RETURN_MS } from '../../web/src/flow/return-url.js';
import { initialState, type Loaded } from '../../web/src/flow/state.js';
import { createFlowStore } from '../../web/src/flow/store.js';
import { TEXT } from '../../web/src/messages.js';
import type { ClickToPaySdk, MaskedCard } from '../../web/src/sdk/types.js';

/** The hosted page's commands for the way back and the decline retry, with a fake API and clock. */
const at = '2026-01-01T00:00:00.000Z';
const context: SessionContext = { orderRef: 'ord-1', outletId: 'out-1', merchantRef: 'm-1', expiresAt: '', returnUrl: 'https://shop.example.com/r?x=1' };
/** `failure.retryable` here is moved to the payment, where the server puts it. */
const payment = (paymentRef: string, state: Payment['state'], failure?: Record<string, unknown>): Payment => {
  const { retryable, ...rest } = failure ?? {};
  return {
    paymentRef,
    orderRef: 'ord-1',
    outletId: 'out-1',
    state,
    amount: { currencyCode: 'AED', value: 100 },
    ...(failure ? { failure: rest } : {}),
    ...(retryable === undefined ? {} : { retryable }),
    createdAt: at,
    updatedAt: at,
  } as Payment;
};
const orderWith = (...payments: Payment[]): Order => ({
  orderRef: 'ord-1',
  outletId: 'out-1',
  action: 'AUTH',
  amount: { currencyCode: 'AED', value: 100 },
  state: payments.at(-1)!.state,
  paymentMethods: ['CLICK_TO_PAY'],
  payments,
  createdAt: at,
});
const declined = payment('p1', 'FAILED', { code: 'CARD_EXPIRED', reason: 'x', retryable: true });
const card: MaskedCard = {
  srcDigitalCardId: 'c1',
  brand: 'VISA',
  panLastFour: '1111',
  panExpirationMonth: '12',
  panExpirationYear: '2029',
  descriptorName: 'B',
};

function setup(options: { session?: SessionContext; api?: Partial<ApiClient>; sdk?: boolean } = {}) {
  const loaded: Loaded = {
    context: options.session ?? context,
    config: {} as Loaded['config'],
    keys: { encryptionKeyId: 'k', keys: [] },
    order: orderWith(declined),
    paymentRef: 'p1',
  };
  const store = createFlowStore({ ...initialState, loaded, cards: [card] });
  const navigate = vi.fn<(url: string) => void>();
  const ctx: FlowContext = {
    boot: { ok: true, token: 't', context: loaded.context },
    store,
    navigate,
    api: options.api as ApiClient,
    ...(options.sdk === false ? {} : { sdk: {} as ClickToPaySdk }),
  };
  return { ctx, store, navigate };
}

describe('opening the page (load): expired and invalid sessions', () => {
  const bootError = (error: 'SESSION_EXPIRED' | 'SESSION_INVALID') => {
    const store = createFlowStore(initialState);
    const ctx: FlowContext = { boot: { ok: false, error }, store, navigate: vi.fn() };
    return { ctx, store };
  };

  it('a session past its expiry says it expired', async () => {
    const { ctx, store } = bootError('SESSION_EXPIRED');
    await load(ctx);
    expect(store.getState().view).toEqual({ kind: 'expired' });
  });

  it('an unknown or malformed session says the link is not valid, not that it expired', async () => {
    const { ctx, store } = bootError('SESSION_INVALID');
    await load(ctx);
    expect(store.getState().view).toEqual({ kind: 'invalid' });
  });

  it('a session the API no longer takes (401) expired; an order it cannot find (404) is not valid', async () => {
    for (const [status, kind] of [
      [401, 'expired'],
      [404, 'invalid'],
    ] as const) {
      const store = createFlowStore(initialState);
      const reject = async () => Promise.reject(new ApiError(status, status === 401 ? 'UNAUTHENTICATED' : 'NOT_FOUND'));
      const api = { merchantConfig: reject, encryptionKeys: reject, order: reject } as unknown as ApiClient;
      await load({ boot: { ok: true, token: 't', context }, store, navigate: vi.fn(), api });
      expect(store.getState().view, String(status)).toEqual({ kind });
    }
  });
});

describe('auto-return after an outcome (settle)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('a success goes back to the return URL with the orderRef after AUTO_RETURN_MS, once', () => {
    const { ctx, store, navigate } = setup();
    settle(ctx, payment('p1', 'AUTHORISED'));
    expect(store.getState()).toMatchObject({ view: { kind: 'paid' }, autoReturn: true });
    vi.advanceTimersByTime(AUTO_RETURN_MS - 1);
    expect(navigate).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(navigate).toHaveBeenCalledExactlyOnceWith('https://shop.example.com/r?x=1&orderRef=ord-1');
    expect(store.getState().leaving).toBe(true);
  });

  it('a final decline returns too; a retryable one waits for the shopper', () => {
    const final = setup();
    settle(final.ctx, payment('p1', 'FAILED', { code: 'DO_NOT_HONOUR', reason: 'x', retryable: false }));
    vi.advanceTimersByTime(AUTO_RETURN_MS);
    expect(final.navigate).toHaveBeenCalledOnce();
    const retryable = setup();
    settle(retryable.ctx, declined);
    vi.advanceTimersByTime(AUTO_RETURN_MS * 10);
    expect(retryable.navigate).not.toHaveBeenCalled();
    expect(retryable.store.getState().autoReturn).toBe(false);
  });

  it('no return URL: nothing scheduled (the page says "you can close this window")', () => {
    const { ctx, store, navigate } = setup({ session: { ...context, returnUrl: undefined } });
    settle(ctx, payment('p1', 'AUTHORISED'));
    vi.advanceTimersByTime(AUTO_RETURN_MS * 10);
    expect(navigate).not.toHaveBeenCalled();
    expect(store.getState().autoReturn).toBe(false);
  });

  it('a shopper who already left (Back/Cancel) is not sent a second time', () => {
    const { ctx, navigate } = setup({ session: { ...context, cancelUrl: 'https://shop.example.com/c' } });
    settle(ctx, payment('p1', 'AUTHORISED'));
    leave(ctx, 'cancel');
    vi.advanceTimersByTime(AUTO_RETURN_MS);
    expect(navigate.mock.calls).toEqual([['https://shop.example.com/c?orderRef=ord-1']]);
  });
});

describe('Try another card (retryWithAnotherCard)', () => {
  it('opens a new payment keyed by the declined one and shows the cards again for it', async () => {
    const newPayment = vi.fn(async () => orderWith(declined, payment('p2', 'STARTED')));
    const { ctx, store } = setup({ api: { newPayment } });
    store.dispatch({ type: 'paymentUpdated', payment: declined });
    await retryWithAnotherCard(ctx);
    expect(newPayment).toHaveBeenCalledWith('out-1', 'ord-1', 'p1');
    expect(store.getState()).toMatchObject({ view: { kind: 'cards' }, loaded: { paymentRef: 'p2' }, status: TEXT.chooseAnotherCard.body });
  });

  it('does nothing unless a retryable decline is on screen', async () => {
    const newPayment = vi.fn();
    const { ctx, store } = setup({ api: { newPayment } });
    store.dispatch({ type: 'paymentUpdated', payment: payment('p1', 'FAILED', { code: 'X', reason: 'x' }) });
    await retryWithAnotherCard(ctx);
    expect(newPayment).not.toHaveBeenCalled();
    expect(store.getState().view.kind).toBe('declined');
  });

  it('an expired session says so', async () => {
    const { ctx, store } = setup({ api: { newPayment: async () => Promise.reject(new ApiError(401, 'UNAUTHORIZED')) } });
    store.dispatch({ type: 'paymentUpdated', payment: declined });
    await retryWithAnotherCard(ctx);
    expect(store.getState().view.kind).toBe('expired');
  });

  it('a refusal with nothing new on the order: the decline again, with why', async () => {
    const { ctx, store } = setup({
      api: { newPayment: async () => Promise.reject(new ApiError(409, 'PAYMENT_STATE_CONFLICT')), order: async () => orderWith(declined) },
    });
    store.dispatch({ type: 'paymentUpdated', payment: declined });
    await retryWithAnotherCard(ctx);
    expect(store.getState()).toMatchObject({ view: { kind: 'declined', payment: declined }, alert: TEXT.retryFailed, loaded: { paymentRef: 'p1' } });
  });

  it('another tab got there first: a new STARTED payment is used, a paid one is shown', async () => {
    const started = setup({
      api: { newPayment: async () => Promise.reject(new ApiError(409, 'X')), order: async () => orderWith(declined, payment('p2', 'STARTED')) },
    });
    started.store.dispatch({ type: 'paymentUpdated', payment: declined });
    await retryWithAnotherCard(started.ctx);
    expect(started.store.getState()).toMatchObject({ view: { kind: 'cards' }, loaded: { paymentRef: 'p2' } });

    const paid = setup({
      api: { newPayment: async () => Promise.reject(new ApiError(0, 'NETWORK_ERROR')), order: async () => orderWith(declined, payment('p2', 'AUTHORISED')) },
    });
    paid.store.dispatch({ type: 'paymentUpdated', payment: declined });
    await retryWithAnotherCard(paid.ctx);
    expect(paid.store.getState().view).toMatchObject({ kind: 'paid', payment: { paymentRef: 'p2' } });
  });

  it('an answer without a new STARTED payment is not trusted: the decline again', async () => {
    const { ctx, store } = setup({ api: { newPayment: async () => orderWith(declined) } });
    store.dispatch({ type: 'paymentUpdated', payment: declined });
    await retryWithAnotherCard(ctx);
    expect(store.getState()).toMatchObject({ view: { kind: 'declined' }, alert: TEXT.retryFailed, loaded: { paymentRef: 'p1' } });
  });
});
