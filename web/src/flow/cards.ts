import { TEXT } from '../messages.js';
import { isSdkError } from '../sdk/index.js';
import type { ValidCard } from '../validation.js';
import type { FlowContext } from './context.js';
import { initSdk } from './session.js';

/** The signed-in shopper's cards: listing them, and adding one (encrypted in this page by the SDK first). */

export async function loadCards(ctx: FlowContext): Promise<void> {
  const { sdk, store } = ctx;
  if (!sdk) return;
  store.dispatch({ type: 'loading', label: 'Loading your cards…' });
  try {
    store.dispatch({ type: 'cardsLoaded', cards: await sdk.getCards() });
  } catch (error) {
    if (isSdkError(error) && error.reason === 'NOT_AUTHENTICATED') return initSdk(ctx, { alert: TEXT.sessionLost });
    store.dispatch({ type: 'cardsFailed' });
  }
}

export async function enroll(ctx: FlowContext, card: ValidCard, newConsumer: boolean): Promise<void> {
  const { sdk, store } = ctx;
  if (!sdk || !store.getState().loaded) return;
  store.dispatch({ type: 'alertCleared' });
  try {
    // The SDK encrypts the card to its network's key before the number leaves this page
    // (the sandbox: the service's 4.2 key; Visa / Mastercard: theirs — web/src/sdk/).
    const masked = await sdk.enrollCard({
      primaryAccountNumber: card.pan,
      panExpirationMonth: card.month,
      panExpirationYear: card.year,
      cardSecurityCode: card.cvc,
      cardholderName: card.name,
      brand: card.brand,
    });
    store.dispatch({ type: 'cardEnrolled', card: masked });
  } catch (error) {
    if (isSdkError(error) && error.reason === 'NOT_AUTHENTICATED') return initSdk(ctx, { alert: TEXT.sessionLost });
    store.dispatch({ type: 'addCardOpened', newConsumer, alert: TEXT.enrollFailed });
  }
}
