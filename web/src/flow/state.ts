import type { EncryptionKeys, MerchantConfig, Order, Payment } from '../api.js';
import type { SessionContext } from '../bootstrap.js';
import type { Notice } from '../messages.js';
import type { MaskedCard, MaskedConsumer, ValidationChannel } from '../sdk/types.js';

/**
 * Everything the hosted page shows, as one value. The reducer (reducer.ts) is the only thing
 * that changes it; the flow's commands (the network, the SDK) only dispatch actions.
 */

/** The screen in the checkout panel. `kind` is also its data-step (tests and styles use it). */
export type View =
  | { kind: 'loading'; label: string }
  /** The session ran out (it was real): the shop can start a new one. */
  | { kind: 'expired' }
  /** No such session: a made-up, mistyped or cut-off link (nothing says whether it ever existed). */
  | { kind: 'invalid' }
  | { kind: 'fatal'; notice: Notice; retry?: 'load' | 'init' }
  | { kind: 'identity'; notFound?: boolean }
  | { kind: 'otp'; maskedChannel: string; channel: ValidationChannel }
  | { kind: 'cards-error' }
  | { kind: 'cards' }
  | { kind: 'add-card'; newConsumer: boolean }
  | { kind: 'processing'; label: string }
  | { kind: 'pay-error'; notice: Notice; cardId: string }
  | { kind: 'three-ds'; payment: Payment }
  | { kind: 'paid'; payment: Payment; already?: boolean }
  | { kind: 'declined'; payment: Payment };

export type ViewKind = View['kind'];

/** What the page loaded for its session: the order, the merchant, the keys cards are encrypted with. */
export interface Loaded {
  context: SessionContext;
  config: MerchantConfig;
  keys: EncryptionKeys;
  order: Order;
  /** The payment this page is paying (the order's last one). */
  paymentRef: string;
}

/** The identity form's fields, kept here so that switching email ⇄ mobile keeps both. */
export interface IdentityDraft {
  mode: 'email' | 'mobile';
  email: string;
  mobile: string;
}

export interface FlowState {
  view: View;
  /** A page-level message above the step; every change of view replaces (or clears) it. */
  alert?: Notice;
  /** Announced politely (and shown on identity/cards): "Card added…", "You're signed out…". */
  status: string;
  loaded?: Loaded;
  draft: IdentityDraft;
  cards: MaskedCard[];
  consumer: MaskedConsumer;
  /** What the shopper typed when they have no Click to Pay profile (their own input, shown back). */
  typedIdentity?: string;
  selected?: string;
  /** Wrong codes in a row; the page stops asking after MAX_OTP_FAILURES. */
  otpFailures: number;
  /** The result on screen will send the shopper back to the shop by itself (return-url.ts). */
  autoReturn: boolean;
  /** The page is navigating to the shop (an app's WebView may keep it on screen meanwhile). */
  leaving: boolean;
}

export const MAX_OTP_FAILURES = 5;

export const EMPTY_DRAFT: IdentityDraft = { mode: 'email', email: '', mobile: '' };

export const initialState: FlowState = {
  view: { kind: 'loading', label: 'Loading your payment…' },
  status: '',
  draft: EMPTY_DRAFT,
  cards: [],
  consumer: {},
  otpFailures: 0,
  autoReturn: false,
  leaving: false,
};

/** Position in the stepper (Sign in, Choose card, Pay, done); -1: no stepper. */
export const STEP_OF: Record<ViewKind, number> = {
  loading: 0,
  expired: -1,
  invalid: -1,
  fatal: -1,
  identity: 0,
  otp: 0,
  'cards-error': 1,
  cards: 1,
  'add-card': 1,
  processing: 2,
  'pay-error': 2,
  'three-ds': 2,
  paid: 3,
  declined: -1,
};

/** Screens the session's expiry must not replace: the outcome is known, or a payment is in flight. */
export function expiryMayInterrupt(kind: ViewKind): boolean {
  return !['paid', 'declined', 'expired', 'invalid', 'processing', 'three-ds'].includes(kind);
}
