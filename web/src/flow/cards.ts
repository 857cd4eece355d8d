import { encryptCompactJwe } from '../jwe.js';
import { TEXT } from '../messages.js';
import { isSdkError } from '../sdk/index.js';
import type { ValidCard } from '../validation.js';
import type { FlowContext } from './context.js';
import { initSdk } from './session.js';

/** The signed-in shopper's cards: listing them, and adding one (encrypted in this page first). */

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
  const loaded = store.getState().loaded;
  if (!sdk || !loaded) return;
  store.dispatch({ type: 'alertCleared' });
  const { keys } = loaded;
  const key = keys.keys.find((k) => k.kid === keys.encryptionKeyId) ?? keys.keys.find((k) => k.status === 'current');
  if (!key) return store.dispatch({ type: 'addCardOpened', newConsumer, alert: TEXT.enrollFailed });
  try {
    // The card number leaves this page only inside a JWE for the service's current key.
    const encryptedCard = await encryptCompactJwe(
      JSON.stringify({
        primaryAccountNumber: card.pan,
        panExpirationMonth: card.month,
        panExpirationYear: card.year,
        cardSecurityCode: card.cvc,
        cardholderFullName: card.name,
      }),
      key,
      key.kid,
    );
    const masked = await sdk.enrollCard({
      encryptedCard,
      brand: card.brand,
      panBin: card.pan.slice(0, 6),
      panLastFour: card.pan.slice(-4),
      panExpirationMonth: card.month,
      panExpirationYear: card.year,
      cardholderName: card.name,
    });
    store.dispatch({ type: 'cardEnrolled', card: masked });
  } catch (error) {
    if (isSdkError(error) && error.reason === 'NOT_AUTHENTICATED') return initSdk(ctx, { alert: TEXT.sessionLost });
    store.dispatch({ type: 'addCardOpened', newConsumer, alert: TEXT.enrollFailed });
  }
}
