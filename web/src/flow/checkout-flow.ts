import type { BootstrapResult } from '../bootstrap.js';
import type { ConsumerIdentity } from '../sdk/index.js';
import type { OtpFailure } from '../steps/otp.js';
import type { ValidCard } from '../validation.js';
import { enroll, loadCards } from './cards.js';
import type { FlowContext } from './context.js';
import { completeThreeDs, continueThreeDs, pay, retryWithAnotherCard } from './payment.js';
import { expire, initSdk, load } from './session.js';
import { lookup, resendOtp, switchIdentity, validateOtp } from './sign-in.js';
import { expiryMayInterrupt } from './state.js';
import { createFlowStore, type FlowStore } from './store.js';

/** The hosted checkout as the screens see it: the store to render, and what a shopper can do. */
export interface CheckoutFlow {
  store: FlowStore;
  load(): Promise<void>;
  initSdk(): Promise<void>;
  lookup(identity: ConsumerIdentity): Promise<string | undefined>;
  switchIdentity(message?: string): Promise<void>;
  validateOtp(code: string): Promise<OtpFailure | undefined>;
  resendOtp(): ReturnType<typeof resendOtp>;
  loadCards(): Promise<void>;
  enroll(card: ValidCard, newConsumer: boolean): Promise<void>;
  pay(cardId: string): Promise<void>;
  completeThreeDs(cres: string): Promise<void>;
  /** The 3DS Method ran (Y) or timed out (N): 4.10 carries on with the AReq. */
  continueThreeDs(threeDSCompInd: 'Y' | 'N'): Promise<void>;
  /** After a retryable decline: a new payment on the same order, then a card again. */
  retryWithAnotherCard(): Promise<void>;
  /** The session token stopped working (its expiresAt passed): say so, unless it no longer matters. */
  sessionTimedOut(): void;
}

export function createCheckoutFlow(
  boot: BootstrapResult,
  store: FlowStore = createFlowStore(),
  navigate: (url: string) => void = (url) => window.location.assign(url),
): CheckoutFlow {
  const ctx: FlowContext = { boot, store, navigate };
  return {
    store,
    load: () => load(ctx),
    initSdk: () => initSdk(ctx),
    lookup: (identity) => lookup(ctx, identity),
    switchIdentity: (message) => switchIdentity(ctx, message),
    validateOtp: (code) => validateOtp(ctx, code),
    resendOtp: () => resendOtp(ctx),
    loadCards: () => loadCards(ctx),
    enroll: (card, newConsumer) => enroll(ctx, card, newConsumer),
    pay: (cardId) => pay(ctx, cardId),
    completeThreeDs: (cres) => completeThreeDs(ctx, cres),
    continueThreeDs: (threeDSCompInd) => continueThreeDs(ctx, threeDSCompInd),
    retryWithAnotherCard: () => retryWithAnotherCard(ctx),
    sessionTimedOut: () => {
      if (expiryMayInterrupt(store.getState().view.kind)) expire(ctx);
    },
  };
}
