import { SdkError, type CardNetwork, type MaskedCard, type NewCard, type SdkErrorReason } from './types.js';

/**
 * What the Visa and Mastercard adapters share: error reasons, masked cards, transaction
 * options, SDK URL parameters. Field names follow the networks' references (cited in
 * ./visa-sdk.ts and ./mastercard-sdk.ts); what they do not document is not read.
 */

/**
 * Reason codes the networks' SDKs report (`error.reason`, or `reason` of a rejected call) →
 * ours. Visa's and Mastercard's references name CODE_INVALID, RETRIES_EXCEEDED,
 * ACCT_INACCESSIBLE, INVALID_PARAMETER…; a code not listed falls back to what the call means.
 */
const REASONS: Record<string, SdkErrorReason> = {
  CODE_INVALID: 'OTP_INVALID',
  OTP_INVALID: 'OTP_INVALID',
  CODE_EXPIRED: 'OTP_EXPIRED',
  RETRIES_EXCEEDED: 'RETRIES_EXCEEDED',
  ACCT_INACCESSIBLE: 'ACCOUNT_LOCKED',
  FRAUD: 'ACCOUNT_LOCKED',
  ID_FORMAT_UNSUPPORTED: 'INVALID_IDENTITY',
  CONSUMER_ID_FORMAT_INVALID: 'INVALID_IDENTITY',
  CONSUMER_ID_MISSING: 'INVALID_IDENTITY',
  OTP_SEND_FAILED: 'RESEND_LIMIT',
  AUTH_INVALID: 'NOT_AUTHENTICATED',
  AUTH_ERROR: 'NOT_AUTHENTICATED',
  CARD_INVALID: 'INVALID_CARD',
  CARD_ADD_FAILED: 'INVALID_CARD',
};

export function normalise(error: unknown, fallback: SdkErrorReason): SdkError {
  if (error instanceof SdkError) return error;
  const raw = error && typeof error === 'object' ? (error as Record<string, unknown>) : {};
  const nested = raw.error && typeof raw.error === 'object' ? (raw.error as Record<string, unknown>) : {};
  const reason = String(raw.reason ?? nested.reason ?? '').toUpperCase();
  return new SdkError(REASONS[reason] ?? fallback);
}

/** dpaTransactionOptions: locale and amount (both networks' init and checkout take it). */
export function transactionOptions(amount: { value: number; currencyCode: string }, locale: string, amountAsString = false) {
  return {
    dpaLocale: locale,
    transactionAmount: { transactionAmount: amountAsString ? String(amount.value) : amount.value, transactionCurrencyCode: amount.currencyCode },
  };
}

function networkOf(value: unknown): CardNetwork {
  const brand = String(value ?? '').toUpperCase();
  if (brand.includes('MASTER')) return 'MASTERCARD';
  if (brand.includes('AMEX') || brand.includes('AMERICAN')) return 'AMEX';
  if (brand.includes('DISCOVER')) return 'DISCOVER';
  return 'VISA';
}

/** A network MaskedCard (srcDigitalCardId, panLastFour, paymentCardDescriptor, digitalCardData) → ours. */
export function fromNetworkCard(value: unknown): MaskedCard[] {
  if (!value || typeof value !== 'object') return [];
  const card = value as Record<string, unknown>;
  const data = (card.digitalCardData ?? {}) as Record<string, unknown>;
  const id = typeof card.srcDigitalCardId === 'string' ? card.srcDigitalCardId : '';
  const lastFour = typeof card.panLastFour === 'string' ? card.panLastFour : '';
  if (!id || !/^\d{4}$/.test(lastFour)) return [];
  return [
    {
      srcDigitalCardId: id,
      brand: networkOf(card.paymentCardDescriptor ?? card.brand),
      panLastFour: lastFour,
      panExpirationMonth: String(card.panExpirationMonth ?? ''),
      panExpirationYear: String(card.panExpirationYear ?? ''),
      descriptorName: String(data.descriptorName ?? ''),
    },
  ];
}

/** The configured SDK URL with the parameters the network reads from it (configured ones win). */
export function withParams(src: string, params: Record<string, string>): string {
  const url = new URL(src, location.href);
  for (const [key, value] of Object.entries(params)) if (!url.searchParams.has(key)) url.searchParams.set(key, value);
  return url.href;
}

/**
 * Both networks enrol a new card as part of checkout (Visa: checkout({ encryptedCard }),
 * Mastercard: checkoutWithNewCard): enrolCard keeps the encrypted card under a local id that
 * checkout() recognises, and shows the masked card meanwhile.
 */
export const NEW_CARD_PREFIX = 'new-card:';

export class PendingCards<T> {
  private readonly pending = new Map<string, T>();

  /** Keeps what checkout() will send for `card` and answers the card as the list shows it (masked). */
  add(value: T, card: NewCard): MaskedCard {
    const id = `${NEW_CARD_PREFIX}${this.pending.size + 1}`;
    this.pending.set(id, value);
    return {
      srcDigitalCardId: id,
      brand: card.brand,
      panLastFour: card.primaryAccountNumber.slice(-4),
      panExpirationMonth: card.panExpirationMonth,
      panExpirationYear: card.panExpirationYear,
      descriptorName: card.cardholderName,
    };
  }

  get(id: string): T | undefined {
    return this.pending.get(id);
  }

  clear(): void {
    this.pending.clear();
  }
}
