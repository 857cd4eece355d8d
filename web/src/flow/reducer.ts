import type { Order, Payment } from '../api.js';
import { TEXT, type Notice } from '../messages.js';
import type { MaskedCard, MaskedConsumer, ValidationChannel } from '../sdk/types.js';
import { EMPTY_DRAFT, type FlowState, type IdentityDraft, type Loaded, type View } from './state.js';

/**
 * The hosted page's state machine: what happened (an action) → the next state. Pure, so the
 * rules are unit-tested (test/unit/web-flow-reducer.test.ts) without a browser; the commands
 * in this folder do the I/O and dispatch.
 */
export type FlowAction =
  | { type: 'loading'; label: string }
  | { type: 'expired' }
  | { type: 'invalid' }
  | { type: 'fatal'; notice: Notice; retry?: 'load' | 'init' }
  | { type: 'orderLoaded'; loaded: Loaded }
  | { type: 'sdkReady'; status?: string; alert?: Notice }
  | { type: 'draftChanged'; draft: IdentityDraft }
  | { type: 'signOutStarted' }
  | { type: 'lookupStarted' }
  | { type: 'consumerNotFound'; typed: string }
  | { type: 'consumerFound'; otp?: { maskedChannel: string; channel: ValidationChannel } }
  | { type: 'signInFailed'; alert: Notice }
  | { type: 'otpRejected' }
  | { type: 'otpAccepted'; consumer: MaskedConsumer }
  | { type: 'cardsLoaded'; cards: MaskedCard[] }
  | { type: 'cardsFailed' }
  | { type: 'cardSelected'; cardId: string }
  | { type: 'addCardOpened'; newConsumer: boolean; alert?: Notice }
  | { type: 'alertCleared' }
  | { type: 'cardEnrolled'; card: MaskedCard }
  | { type: 'cardsShown'; alert?: Notice }
  | { type: 'identityShown' }
  | { type: 'paymentStarted'; label: string }
  | { type: 'processing'; label: string }
  | { type: 'paymentFailedToSend'; notice: Notice; cardId: string }
  | { type: 'paymentUpdated'; payment: Payment; onLoad?: boolean }
  | { type: 'autoReturnScheduled' }
  | { type: 'leaving' }
  | { type: 'paymentRetried'; order: Order; paymentRef: string }
  | { type: 'retryFailed'; payment: Payment; alert: Notice };

export function flowReducer(state: FlowState, action: FlowAction): FlowState {
  switch (action.type) {
    case 'loading':
      return show(state, { kind: 'loading', label: action.label });
    case 'expired':
      return show(state, { kind: 'expired' });
    case 'invalid':
      return show(state, { kind: 'invalid' });
    case 'fatal':
      return show(state, { kind: 'fatal', notice: action.notice, ...(action.retry ? { retry: action.retry } : {}) });
    case 'orderLoaded':
      return { ...state, loaded: action.loaded };
    case 'sdkReady':
      // A fresh SDK knows nobody: whoever was signed in before is forgotten with their cards.
      return show(
        { ...state, cards: [], consumer: {}, typedIdentity: undefined, selected: undefined, otpFailures: 0, status: action.status ?? '' },
        { kind: 'identity' },
        action.alert,
      );
    case 'draftChanged':
      return { ...state, draft: action.draft };
    case 'signOutStarted':
      return show({ ...state, draft: EMPTY_DRAFT }, { kind: 'loading', label: 'Signing out…' });
    case 'lookupStarted':
      return { ...state, alert: undefined, status: '' };
    case 'consumerNotFound':
      return show({ ...state, typedIdentity: action.typed }, { kind: 'identity', notFound: true });
    case 'consumerFound': {
      const next = { ...state, typedIdentity: undefined, otpFailures: 0 };
      return action.otp ? show(next, { kind: 'otp', ...action.otp }) : next;
    }
    case 'signInFailed':
      return show(state, { kind: 'identity' }, action.alert);
    case 'otpRejected':
      return { ...state, otpFailures: state.otpFailures + 1 };
    case 'otpAccepted':
      return { ...state, consumer: action.consumer };
    case 'cardsLoaded':
      return show({ ...state, cards: action.cards, selected: action.cards[0]?.srcDigitalCardId }, { kind: 'cards' });
    case 'cardsFailed':
      return show(state, { kind: 'cards-error' });
    case 'cardSelected':
      return { ...state, selected: action.cardId };
    case 'addCardOpened':
      return show(state, { kind: 'add-card', newConsumer: action.newConsumer }, action.alert);
    case 'alertCleared':
      return { ...state, alert: undefined };
    case 'cardEnrolled': {
      const card = action.card;
      // Enrolling a card already in the list (same id) replaces it instead of listing it twice.
      const cards = [...state.cards.filter((c) => c.srcDigitalCardId !== card.srcDigitalCardId), card];
      const status = `Card added: ${card.brand === 'MASTERCARD' ? 'Mastercard' : 'Visa'} ending in ${card.panLastFour}.`;
      return show({ ...state, cards, selected: card.srcDigitalCardId, status }, { kind: 'cards' });
    }
    case 'cardsShown':
      return show(state, { kind: 'cards' }, action.alert);
    case 'identityShown':
      return show(state, { kind: 'identity' });
    case 'paymentStarted':
      return show({ ...state, status: '' }, { kind: 'processing', label: action.label });
    case 'processing':
      return show(state, { kind: 'processing', label: action.label });
    case 'paymentFailedToSend':
      return show(state, { kind: 'pay-error', notice: action.notice, cardId: action.cardId });
    case 'paymentUpdated': {
      const view = viewOfPayment(action.payment, action.onLoad ?? false);
      return view ? show(state, view) : state;
    }
    case 'autoReturnScheduled':
      return { ...state, autoReturn: true };
    case 'leaving':
      return { ...state, leaving: true };
    case 'paymentRetried':
      // The same order, a new payment: from here on the page pays that one.
      return state.loaded
        ? { ...state, loaded: { ...state.loaded, order: action.order, paymentRef: action.paymentRef }, autoReturn: false, status: TEXT.chooseAnotherCard.body }
        : state;
    case 'retryFailed':
      return show(state, { kind: 'declined', payment: action.payment }, action.alert);
  }
}

/**
 * A declined payment the shopper may follow with another card on the same order: the server
 * says so (`retryable`, from the acquirer's code and the order's attempts), the page never guesses.
 */
export function isRetryable(payment: Payment): boolean {
  return payment.state === 'FAILED' && payment.retryable === true;
}

/** A result that ends the visit: success, or a decline that cannot be retried. */
export function endsVisit(view: View): boolean {
  return view.kind === 'paid' || (view.kind === 'declined' && !isRetryable(view.payment));
}

/** A new screen; the page-level alert belongs to the screen it was raised on. */
function show(state: FlowState, view: View, alert?: Notice): FlowState {
  return { ...state, view, alert };
}

/**
 * The screen for a payment as the server reports it. Once a payment has an outcome the page
 * shows that outcome, never a second checkout; on load, a STARTED payment means "carry on"
 * (undefined: no change).
 */
export function viewOfPayment(payment: Payment, onLoad: boolean): View | undefined {
  switch (payment.state) {
    case 'AUTHORISED':
    case 'CAPTURED':
    // The merchant has since captured, reversed or refunded: still never a second checkout.
    case 'PARTIALLY_CAPTURED':
    case 'REVERSED':
    case 'PARTIALLY_REFUNDED':
    case 'REFUNDED':
      return { kind: 'paid', payment, already: onLoad };
    case 'FAILED':
      return { kind: 'declined', payment };
    case 'AWAIT_3DS':
      return payment.threeDs ? { kind: 'three-ds', payment } : { kind: 'fatal', notice: TEXT.serviceUnavailable, retry: 'load' };
    case 'STARTED':
      return onLoad ? undefined : { kind: 'fatal', notice: TEXT.serviceUnavailable, retry: 'load' };
  }
}
