/**
 * The one Click to Pay SDK interface the page talks to. Two implementations exist: the
 * sandbox SDK (fetch calls to the service's own /sandbox/src/*) and the real network SDKs
 * (Visa Unified Click to Pay, Mastercard Checkout Services) loaded from configuration.
 * The page never knows which one it has (createClickToPaySdk in ./index.ts chooses).
 */

export type CardNetwork = 'VISA' | 'MASTERCARD' | 'AMEX' | 'DISCOVER';

export interface SdkInitOptions {
  dpaId: string;
  dpaClientId: string;
  dpaName: string;
  /** Lower-case brand names as in the merchant configuration, e.g. ["visa","mastercard"]. */
  cardBrands: string[];
  /** BCP 47 or Java-style locale from the merchant configuration (en_AE). */
  locale: string;
  /** The order's amount in major units, for the networks' transaction options. */
  amount: { value: number; currencyCode: string };
}

export type ConsumerIdentity =
  | { type: 'EMAIL'; value: string }
  | { type: 'MOBILE_NUMBER'; value: string; countryCode: string; nationalNumber: string };

export type ValidationChannel = 'EMAIL' | 'SMS';

export interface LookupResult {
  consumerPresent: boolean;
  /** Present when a one-time code was sent. Absent for a present consumer = already recognised. */
  validation?: { maskedChannel: string; channel: ValidationChannel };
}

export interface MaskedCard {
  srcDigitalCardId: string;
  brand: CardNetwork;
  panLastFour: string;
  panExpirationMonth: string;
  panExpirationYear: string;
  descriptorName: string;
}

export interface MaskedConsumer {
  maskedEmail?: string;
  maskedMobileNumber?: string;
}

/** A new card, already JWE-encrypted in the browser; only masked data travels in clear. */
export interface EnrollCardInput {
  encryptedCard: string;
  brand: CardNetwork;
  panBin: string;
  panLastFour: string;
  panExpirationMonth: string;
  panExpirationYear: string;
  cardholderName: string;
}

export interface CheckoutInput {
  srcDigitalCardId: string;
  /** Major units, as the networks' transactionAmount expects. */
  amount: { value: number; currencyCode: string };
}

/** What the network SDK's checkout() resolved with; passed to 4.3 unmodified. */
export type CheckoutResult = Record<string, unknown>;

export interface ClickToPaySdk {
  init(options: SdkInitOptions): Promise<void>;
  identityLookup(identity: ConsumerIdentity): Promise<LookupResult>;
  validateOtp(otp: string): Promise<{ consumer: MaskedConsumer }>;
  resendOtp(): Promise<{ maskedChannel: string; resendsLeft?: number }>;
  getCards(): Promise<MaskedCard[]>;
  enrollCard(card: EnrollCardInput): Promise<MaskedCard>;
  checkout(input: CheckoutInput): Promise<CheckoutResult>;
  signOut(): Promise<void>;
}

/** Normalised failure reasons; the page maps them to its own text (never shows raw payloads). */
export type SdkErrorReason =
  | 'INIT_FAILED'
  | 'INVALID_IDENTITY'
  | 'ACCOUNT_LOCKED'
  | 'OTP_INVALID'
  | 'OTP_EXPIRED'
  | 'RETRIES_EXCEEDED'
  | 'RESEND_LIMIT'
  | 'NO_PENDING_OTP'
  | 'NOT_AUTHENTICATED'
  | 'CARDS_UNAVAILABLE'
  | 'INVALID_CARD'
  | 'UNKNOWN_CARD'
  | 'CHECKOUT_FAILED'
  | 'CHECKOUT_ABANDONED'
  | 'NETWORK'
  | 'UNKNOWN';

export class SdkError extends Error {
  constructor(
    readonly reason: SdkErrorReason,
    readonly details: { remainingAttempts?: number } = {},
  ) {
    super(`Click to Pay SDK error: ${reason}`);
    this.name = 'SdkError';
  }
}

export function isSdkError(error: unknown): error is SdkError {
  return error instanceof SdkError;
}
