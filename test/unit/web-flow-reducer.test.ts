import { describe, expect, it, vi } from 'vitest';
import type { Payment } from '../../web/src/api.js';
import { flowReducer, viewOfPayment, type FlowAction } from '../../web/src/flow/reducer.js';
import { EMPTY_DRAFT, expiryMayInterrupt, initialState, type FlowState, type Loaded } from '../../web/src/flow/state.js';
import { createFlowStore } from '../../web/src/flow/store.js';
import { TEXT } from '../../web/src/messages.js';
import type { MaskedCard } from '../../web/src/sdk/types.js';

/** The hosted page's state machine (web/src/flow/reducer.ts), without a browser. */
const run = (actions: FlowAction[], from: FlowState = initialState) => actions.reduce(flowReducer, from);

const card = (id: string, brand: MaskedCard['brand'] = 'VISA', last = '1111'): MaskedCard => ({
  srcDigitalCardId: id,
  brand,
  panLastFour: last,
  panExpirationMonth: '12',
  panExpirationYear: '2029',
  descriptorName: 'Bank',
});

const at = '2026-01-01T00:00:00.000Z';
const payment = (state: Payment['state'], extra: Partial<Payment> = {}): Payment => ({
  paymentRef: 'pay-1',
  orderRef: 'ord-1',
  outletId: 'out-1',
  state,
  amount: { currencyCode: 'AED', value: 1000 },
  createdAt: at,
  updatedAt: at,
  ...extra,
});

const loaded: Loaded = {
  context: { orderRef: 'ord-1', outletId: 'out-1', merchantRef: 'm-1', expiresAt: at },
  config: {
    merchantRef: 'm-1',
    tenantRef: 't-1',
    dpaId: 'dpa',
    dpaClientId: 'client',
    dpaName: 'Demo Shop',
    cardBrands: ['visa'],
    locale: 'en_AE',
    environment: 'sandbox',
    encryptionKeyId: 'k1',
    clickToPayEnabled: true,
    directWalletEnabled: false,
    threeDsPolicy: 'risk-based',
    redirectOrigins: [],
  },
  keys: { encryptionKeyId: 'k1', keys: [] },
  order: {
    orderRef: 'ord-1',
    outletId: 'out-1',
    action: 'AUTH',
    amount: { currencyCode: 'AED', value: 1000 },
    state: 'STARTED',
    paymentMethods: ['CLICK_TO_PAY'],
    payments: [payment('STARTED')],
    createdAt: at,
  },
  paymentRef: 'pay-1',
};

describe('flow reducer: screens and the page-level alert', () => {
  it('starts on "loading" with nothing loaded and nobody signed in', () => {
    expect(initialState).toMatchObject({ view: { kind: 'loading' }, status: '', draft: EMPTY_DRAFT, cards: [], consumer: {}, otpFailures: 0 });
    expect(initialState.loaded).toBeUndefined();
  });

  it('an alert belongs to the screen it was raised on: the next screen clears or replaces it', () => {
    const withAlert = run([{ type: 'cardsShown', alert: TEXT.checkoutFailed }]);
    expect(withAlert).toMatchObject({ view: { kind: 'cards' }, alert: TEXT.checkoutFailed });
    expect(run([{ type: 'processing', label: 'x' }], withAlert).alert).toBeUndefined();
    expect(run([{ type: 'signInFailed', alert: TEXT.accountLocked }], withAlert)).toMatchObject({ view: { kind: 'identity' }, alert: TEXT.accountLocked });
    // Clearing the alert alone (a new attempt on the same screen) keeps the screen.
    expect(run([{ type: 'alertCleared' }], withAlert)).toMatchObject({ view: { kind: 'cards' }, alert: undefined });
  });

  it('fatal screens carry their retry only when there is one', () => {
    expect(run([{ type: 'fatal', notice: TEXT.notEnabled }]).view).toEqual({ kind: 'fatal', notice: TEXT.notEnabled });
    expect(run([{ type: 'fatal', notice: TEXT.sdkInit, retry: 'init' }]).view).toEqual({ kind: 'fatal', notice: TEXT.sdkInit, retry: 'init' });
  });

  it('an expired session and a session that does not exist are different ends', () => {
    expect(run([{ type: 'expired' }]).view).toEqual({ kind: 'expired' });
    expect(run([{ type: 'invalid' }]).view).toEqual({ kind: 'invalid' });
    expect(TEXT.sessionInvalid.title).not.toMatch(/expired/i);
  });

  it('orderLoaded keeps the screen and records what was loaded', () => {
    const state = run([{ type: 'orderLoaded', loaded }]);
    expect(state.loaded).toBe(loaded);
    expect(state.view.kind).toBe('loading');
  });
});

describe('flow reducer: signing in', () => {
  const signedIn = run([
    { type: 'sdkReady' },
    { type: 'consumerFound' },
    { type: 'otpAccepted', consumer: { maskedEmail: 'r***@example.com' } },
    { type: 'cardsLoaded', cards: [card('a'), card('b')] },
    { type: 'otpRejected' },
  ]);

  it('a fresh SDK forgets whoever was signed in, their cards and the wrong-code count', () => {
    const next = run([{ type: 'sdkReady', status: 'You’re signed out.', alert: TEXT.sessionLost }], { ...signedIn, typedIdentity: 'x@example.com' });
    expect(next).toMatchObject({ view: { kind: 'identity' }, cards: [], consumer: {}, otpFailures: 0, status: 'You’re signed out.', alert: TEXT.sessionLost });
    expect(next.selected).toBeUndefined();
    expect(next.typedIdentity).toBeUndefined();
    expect(run([{ type: 'sdkReady' }], { ...signedIn, status: 'old' }).status).toBe('');
  });

  it('a lookup clears the alert and the status but stays on the form', () => {
    const next = run([{ type: 'lookupStarted' }], { ...signedIn, view: { kind: 'identity' }, alert: TEXT.authFailed, status: 'x' });
    expect(next).toMatchObject({ view: { kind: 'identity' }, alert: undefined, status: '' });
  });

  it('no profile: the form again, with "not found" and what the shopper typed (shown back later)', () => {
    const next = run([{ type: 'consumerNotFound', typed: 'someone@example.org' }]);
    expect(next.view).toEqual({ kind: 'identity', notFound: true });
    expect(next.typedIdentity).toBe('someone@example.org');
  });

  it('a profile found: the one-time code step (or no screen change when no code is needed), count reset', () => {
    const from = { ...initialState, typedIdentity: 'x', otpFailures: 3 };
    const otp = run([{ type: 'consumerFound', otp: { maskedChannel: 'r***@example.com', channel: 'EMAIL' } }], from);
    expect(otp).toMatchObject({ view: { kind: 'otp', maskedChannel: 'r***@example.com', channel: 'EMAIL' }, otpFailures: 0 });
    expect(otp.typedIdentity).toBeUndefined();
    expect(run([{ type: 'consumerFound' }], from).view).toBe(from.view);
  });

  it('counts wrong codes one by one', () => {
    expect(run([{ type: 'otpRejected' }, { type: 'otpRejected' }, { type: 'otpRejected' }]).otpFailures).toBe(3);
  });

  it('signing out empties the identity form', () => {
    const next = run([{ type: 'draftChanged', draft: { mode: 'mobile', email: 'a@b.c', mobile: '+971' } }, { type: 'signOutStarted' }]);
    expect(next.draft).toEqual(EMPTY_DRAFT);
    expect(next.view).toEqual({ kind: 'loading', label: 'Signing out…' });
  });
});

describe('flow reducer: cards', () => {
  it('the first card is preselected; an empty list selects nothing', () => {
    expect(run([{ type: 'cardsLoaded', cards: [card('a'), card('b')] }])).toMatchObject({ view: { kind: 'cards' }, selected: 'a' });
    expect(run([{ type: 'cardsLoaded', cards: [] }]).selected).toBeUndefined();
    expect(
      run([
        { type: 'cardsLoaded', cards: [card('a'), card('b')] },
        { type: 'cardSelected', cardId: 'b' },
      ]).selected,
    ).toBe('b');
  });

  it('an enrolled card is added once (same id replaces), selected, and announced', () => {
    const state = run([
      { type: 'cardsLoaded', cards: [card('a'), card('b')] },
      { type: 'addCardOpened', newConsumer: false },
    ]);
    expect(state.view).toEqual({ kind: 'add-card', newConsumer: false });
    const added = run([{ type: 'cardEnrolled', card: card('c', 'MASTERCARD', '4444') }], state);
    expect(added.cards.map((c) => c.srcDigitalCardId)).toEqual(['a', 'b', 'c']);
    expect(added).toMatchObject({ view: { kind: 'cards' }, selected: 'c', status: 'Card added: Mastercard ending in 4444.' });
    const again = run([{ type: 'cardEnrolled', card: card('a', 'VISA', '1111') }], added);
    expect(again.cards.map((c) => c.srcDigitalCardId)).toEqual(['b', 'c', 'a']);
    expect(again.status).toBe('Card added: Visa ending in 1111.');
  });

  it('enrolment failure returns to the form with the alert', () => {
    expect(run([{ type: 'addCardOpened', newConsumer: true, alert: TEXT.enrollFailed }])).toMatchObject({
      view: { kind: 'add-card', newConsumer: true },
      alert: TEXT.enrollFailed,
    });
  });
});

describe('flow reducer: paying', () => {
  it('starting a payment clears the status line', () => {
    const next = run([{ type: 'paymentStarted', label: 'Confirming…' }], { ...initialState, status: 'Card added' });
    expect(next).toMatchObject({ view: { kind: 'processing', label: 'Confirming…' }, status: '' });
  });

  it('a payment that could not be sent offers the same card again', () => {
    expect(run([{ type: 'paymentFailedToSend', notice: TEXT.authorizationUnavailable, cardId: 'a' }]).view).toEqual({
      kind: 'pay-error',
      notice: TEXT.authorizationUnavailable,
      cardId: 'a',
    });
  });

  it('an authorised payment, and any later state of it, is a success — "already paid" when found on load', () => {
    for (const state of ['AUTHORISED', 'CAPTURED', 'PARTIALLY_CAPTURED', 'REVERSED', 'PARTIALLY_REFUNDED', 'REFUNDED'] as const) {
      expect(viewOfPayment(payment(state), false), state).toMatchObject({ kind: 'paid', already: false });
      expect(viewOfPayment(payment(state), true), state).toMatchObject({ kind: 'paid', already: true });
    }
  });

  it('FAILED is declined; AWAIT_3DS is the challenge, or an error when the challenge is missing', () => {
    expect(viewOfPayment(payment('FAILED', { failure: { code: 'INSUFFICIENT_FUNDS', reason: 'x' } }), false)?.kind).toBe('declined');
    const threeDs = { acsUrl: 'https://acs.example/c', creq: 'c', transactionId: 't' };
    expect(viewOfPayment(payment('AWAIT_3DS', { threeDs }), true)?.kind).toBe('three-ds');
    expect(viewOfPayment(payment('AWAIT_3DS'), false)).toEqual({ kind: 'fatal', notice: TEXT.serviceUnavailable, retry: 'load' });
  });

  it('STARTED on load means carry on (no change); STARTED after paying is an error with a retry', () => {
    const state = run([{ type: 'sdkReady' }]);
    expect(run([{ type: 'paymentUpdated', payment: payment('STARTED'), onLoad: true }], state)).toBe(state);
    expect(run([{ type: 'paymentUpdated', payment: payment('STARTED') }], state).view).toEqual({
      kind: 'fatal',
      notice: TEXT.serviceUnavailable,
      retry: 'load',
    });
  });

  it('the session expiry may not interrupt an outcome or a payment in flight', () => {
    for (const kind of ['paid', 'declined', 'expired', 'invalid', 'processing', 'three-ds'] as const) expect(expiryMayInterrupt(kind), kind).toBe(false);
    for (const kind of ['loading', 'identity', 'otp', 'cards', 'add-card', 'pay-error', 'fatal'] as const) expect(expiryMayInterrupt(kind), kind).toBe(true);
  });
});

describe('flow store', () => {
  it('notifies on a change, not on an action that changes nothing, and stops after unsubscribe', () => {
    const store = createFlowStore();
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    store.dispatch({ type: 'sdkReady' });
    expect(listener).toHaveBeenCalledTimes(1);
    expect(store.getState().view.kind).toBe('identity');
    store.dispatch({ type: 'paymentUpdated', payment: payment('STARTED'), onLoad: true });
    expect(listener).toHaveBeenCalledTimes(1);
    unsubscribe();
    store.dispatch({ type: 'identityShown' });
    expect(listener).toHaveBeenCalledTimes(1);
    expect(store.getState().view).toEqual({ kind: 'identity' });
  });
});
