import { loadScript } from './load-script.js';
import {
  SdkError,
  type CardNetwork,
  type CheckoutInput,
  type CheckoutResult,
  type ClickToPaySdk,
  type ConsumerIdentity,
  type EnrollCardInput,
  type LookupResult,
  type MaskedCard,
  type MaskedConsumer,
  type SdkErrorReason,
  type SdkInitOptions,
} from './types.js';

/**
 * Adapters for the real card networks' JavaScript SDKs, behind the same interface as the
 * sandbox. They cannot be exercised locally (no network credentials, and the page's CSP would
 * have to allow the networks' origins), so they stay thin: each method maps one documented SDK
 * call and normalises its errors; nothing is invented beyond what the networks document.
 *
 *  - Visa Unified Click to Pay (`sdk.js`, global `VSDK`): initialize, getCards (identity lookup
 *    and OTP validation are both expressed as getCards, answering PENDING_CONSUMER_IDV),
 *    checkout, unbindAppInstance.
 *  - Mastercard Checkout Services (global `MastercardCheckoutServices`): init, idLookup,
 *    initiateValidation, validate, getCards, checkoutWithCard / checkoutWithNewCard, signOut.
 *
 * Enrolment: both networks enrol a new card as part of checkout (encryptedCard in checkout /
 * checkoutWithNewCard), so enrollCard keeps the encrypted card and returns a local placeholder
 * that checkout() turns into a new-card checkout. Real networks expect the card encrypted to
 * *their* public key: the caller must encrypt with the key the network publishes for the DPA.
 */

export interface NetworkSdkUrls {
  visa?: string;
  mastercard?: string;
}

const NEW_CARD_PREFIX = 'new-card:';

/** EMVCo SRC / network reason codes → our reasons. */
function normalise(error: unknown, fallback: SdkErrorReason): SdkError {
  if (error instanceof SdkError) return error;
  const raw = error && typeof error === 'object' ? (error as Record<string, unknown>) : {};
  const nested = raw.error && typeof raw.error === 'object' ? (raw.error as Record<string, unknown>) : {};
  const reason = String(raw.reason ?? nested.reason ?? raw.code ?? '').toUpperCase();
  const map: Record<string, SdkErrorReason> = {
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
  return new SdkError(map[reason] ?? fallback);
}

function transactionOptions(options: { amount: { value: number; currencyCode: string } }, locale: string) {
  return {
    dpaLocale: locale,
    transactionAmount: { transactionAmount: options.amount.value, transactionCurrencyCode: options.amount.currencyCode },
  };
}

function networkOf(value: unknown): CardNetwork {
  const brand = String(value ?? '').toUpperCase();
  return brand.includes('MASTER') ? 'MASTERCARD' : brand.includes('AMEX') || brand.includes('AMERICAN') ? 'AMEX' : brand.includes('DISCOVER') ? 'DISCOVER' : 'VISA';
}

/** Network MaskedCard (EMVCo shape) → ours. */
function fromNetworkCard(value: unknown): MaskedCard[] {
  if (!value || typeof value !== 'object') return [];
  const card = value as Record<string, unknown>;
  const data = (card.digitalCardData ?? {}) as Record<string, unknown>;
  const id = typeof card.srcDigitalCardId === 'string' ? card.srcDigitalCardId : '';
  const lastFour = typeof card.panLastFour === 'string' ? card.panLastFour : '';
  if (!id || !/^\d{4}$/.test(lastFour)) return [];
  return [
    {
      srcDigitalCardId: id,
      brand: networkOf(card.paymentCardDescriptor ?? card.brand ?? data.presentationName ?? data.descriptorName),
      panLastFour: lastFour,
      panExpirationMonth: String(card.panExpirationMonth ?? ''),
      panExpirationYear: String(card.panExpirationYear ?? ''),
      descriptorName: String(data.descriptorName ?? card.descriptorName ?? ''),
    },
  ];
}

function withParams(src: string, params: Record<string, string>): string {
  const url = new URL(src, location.href);
  for (const [key, value] of Object.entries(params)) if (!url.searchParams.has(key)) url.searchParams.set(key, value);
  return url.href;
}

abstract class PendingCards {
  protected pending = new Map<string, EnrollCardInput>();

  async enrollCard(card: EnrollCardInput): Promise<MaskedCard> {
    const id = `${NEW_CARD_PREFIX}${this.pending.size + 1}`;
    this.pending.set(id, card);
    return {
      srcDigitalCardId: id,
      brand: card.brand,
      panLastFour: card.panLastFour,
      panExpirationMonth: card.panExpirationMonth,
      panExpirationYear: card.panExpirationYear,
      descriptorName: card.cardholderName,
    };
  }
}

// ---------------------------------------------------------------- Visa Unified Click to Pay

interface VisaSdk {
  initialize(input: Record<string, unknown>): Promise<unknown>;
  getCards(input: Record<string, unknown>): Promise<Record<string, unknown>>;
  checkout(input: Record<string, unknown>): Promise<Record<string, unknown>>;
  unbindAppInstance?(input?: Record<string, unknown>): Promise<unknown>;
}

export class VisaClickToPaySdk extends PendingCards implements ClickToPaySdk {
  private sdk: VisaSdk | undefined;
  private identity: Record<string, string> | undefined;
  private cards: MaskedCard[] = [];
  private consumer: MaskedConsumer = {};
  private locale = 'en_US';

  constructor(private readonly src: string) {
    super();
  }

  async init(options: SdkInitOptions): Promise<void> {
    try {
      await loadScript(withParams(this.src, { dpaId: options.dpaId, dpaClientId: options.dpaClientId, cardBrands: options.cardBrands.join(',') }));
      const sdk = (window as unknown as { VSDK?: VisaSdk }).VSDK;
      if (!sdk) throw new SdkError('INIT_FAILED');
      this.locale = options.locale;
      await sdk.initialize({ dpaTransactionOptions: transactionOptions(options, options.locale) });
      this.sdk = sdk;
    } catch {
      throw new SdkError('INIT_FAILED');
    }
  }

  async identityLookup(identity: ConsumerIdentity): Promise<LookupResult> {
    this.identity = {
      identityProvider: 'SRC',
      identityType: identity.type === 'EMAIL' ? 'EMAIL_ADDRESS' : 'MOBILE_PHONE_NUMBER',
      identityValue: identity.value,
    };
    const result = await this.getCardsCall({ consumerIdentity: this.identity }, 'UNKNOWN');
    const action = String(result.actionCode ?? '');
    if (action === 'PENDING_CONSUMER_IDV') {
      const masked = String(result.maskedValidationChannel ?? '');
      return { consumerPresent: true, validation: { maskedChannel: masked, channel: masked.includes('@') ? 'EMAIL' : 'SMS' } };
    }
    if (action === 'SUCCESS') {
      this.capture(result);
      return { consumerPresent: true };
    }
    return { consumerPresent: false };
  }

  async validateOtp(otp: string): Promise<{ consumer: MaskedConsumer }> {
    const result = await this.getCardsCall({ consumerIdentity: this.identity, validationData: otp }, 'OTP_INVALID');
    if (result.actionCode !== 'SUCCESS') throw new SdkError('OTP_INVALID');
    this.capture(result);
    return { consumer: this.consumer };
  }

  /** Visa sends a new code when getCards is called again without validation data. */
  async resendOtp(): Promise<{ maskedChannel: string }> {
    const result = await this.getCardsCall({ consumerIdentity: this.identity }, 'RESEND_LIMIT');
    return { maskedChannel: String(result.maskedValidationChannel ?? '') };
  }

  async getCards(): Promise<MaskedCard[]> {
    return this.cards;
  }

  async checkout(input: CheckoutInput): Promise<CheckoutResult> {
    const sdk = this.ready();
    const pending = this.pending.get(input.srcDigitalCardId);
    let result: Record<string, unknown>;
    try {
      result = await sdk.checkout({
        ...(pending ? { encryptedCard: pending.encryptedCard } : { srcDigitalCardId: input.srcDigitalCardId }),
        dpaTransactionOptions: transactionOptions(input, this.locale),
      });
    } catch (error) {
      throw normalise(error, 'CHECKOUT_FAILED');
    }
    if (result.actionCode === 'ABANDONED') throw new SdkError('CHECKOUT_ABANDONED');
    if (result.actionCode !== 'SUCCESS') throw new SdkError('CHECKOUT_FAILED');
    return result;
  }

  async signOut(): Promise<void> {
    this.identity = undefined;
    this.cards = [];
    this.consumer = {};
    try {
      await this.sdk?.unbindAppInstance?.();
    } catch {
      // best effort
    }
  }

  private ready(): VisaSdk {
    if (!this.sdk) throw new SdkError('INIT_FAILED');
    return this.sdk;
  }

  private async getCardsCall(input: Record<string, unknown>, fallback: SdkErrorReason): Promise<Record<string, unknown>> {
    const sdk = this.ready();
    try {
      const result = await sdk.getCards(input);
      if (result.actionCode === 'ERROR') throw result;
      return result;
    } catch (error) {
      throw normalise(error, fallback);
    }
  }

  private capture(result: Record<string, unknown>): void {
    const profiles = Array.isArray(result.profiles) ? (result.profiles as Record<string, unknown>[]) : [];
    this.cards = profiles.flatMap((profile) => (Array.isArray(profile.maskedCards) ? profile.maskedCards.flatMap(fromNetworkCard) : []));
    const consumer = (profiles[0]?.maskedConsumer ?? {}) as Record<string, unknown>;
    this.consumer = {
      ...(typeof consumer.emailAddress === 'string' ? { maskedEmail: consumer.emailAddress } : {}),
      ...(typeof consumer.mobileNumber === 'object' && consumer.mobileNumber
        ? { maskedMobileNumber: String((consumer.mobileNumber as Record<string, unknown>).phoneNumber ?? '') }
        : {}),
    };
  }
}

// ---------------------------------------------------------- Mastercard Checkout Services

interface MastercardSdk {
  init(input: Record<string, unknown>): Promise<unknown>;
  idLookup(input: Record<string, unknown>): Promise<{ consumerPresent?: boolean }>;
  initiateValidation(input?: Record<string, unknown>): Promise<{ maskedValidationChannel?: string }>;
  validate(input: { value: string }): Promise<unknown>;
  getCards(): Promise<unknown>;
  checkoutWithCard(input: Record<string, unknown>): Promise<Record<string, unknown>>;
  checkoutWithNewCard(input: Record<string, unknown>): Promise<Record<string, unknown>>;
  signOut(input?: Record<string, unknown>): Promise<unknown>;
}

export class MastercardClickToPaySdk extends PendingCards implements ClickToPaySdk {
  private sdk: MastercardSdk | undefined;
  private channel: 'EMAIL' | 'SMS' = 'EMAIL';
  private locale = 'en_US';

  constructor(private readonly src: string) {
    super();
  }

  async init(options: SdkInitOptions): Promise<void> {
    try {
      await loadScript(withParams(this.src, { srcDpaId: options.dpaId, locale: options.locale }));
      const Ctor = (window as unknown as { MastercardCheckoutServices?: new () => MastercardSdk }).MastercardCheckoutServices;
      if (!Ctor) throw new SdkError('INIT_FAILED');
      const sdk = new Ctor();
      this.locale = options.locale;
      await sdk.init({
        srcDpaId: options.dpaId,
        dpaData: { dpaName: options.dpaName },
        dpaTransactionOptions: transactionOptions(options, options.locale),
        cardBrands: options.cardBrands,
        checkoutExperience: 'WITHIN_CHECKOUT',
      });
      this.sdk = sdk;
    } catch {
      throw new SdkError('INIT_FAILED');
    }
  }

  async identityLookup(identity: ConsumerIdentity): Promise<LookupResult> {
    const sdk = this.ready();
    try {
      const lookup = await sdk.idLookup(
        identity.type === 'EMAIL'
          ? { email: identity.value }
          : { mobileNumber: { countryCode: identity.countryCode, phoneNumber: identity.nationalNumber } },
      );
      if (!lookup.consumerPresent) return { consumerPresent: false };
      this.channel = identity.type === 'EMAIL' ? 'EMAIL' : 'SMS';
      const sent = await sdk.initiateValidation();
      return { consumerPresent: true, validation: { maskedChannel: String(sent.maskedValidationChannel ?? ''), channel: this.channel } };
    } catch (error) {
      throw normalise(error, 'UNKNOWN');
    }
  }

  async validateOtp(otp: string): Promise<{ consumer: MaskedConsumer }> {
    try {
      await this.ready().validate({ value: otp });
      return { consumer: {} };
    } catch (error) {
      throw normalise(error, 'OTP_INVALID');
    }
  }

  async resendOtp(): Promise<{ maskedChannel: string }> {
    try {
      const sent = await this.ready().initiateValidation({ requestedValidationChannelId: this.channel });
      return { maskedChannel: String(sent.maskedValidationChannel ?? '') };
    } catch (error) {
      throw normalise(error, 'RESEND_LIMIT');
    }
  }

  async getCards(): Promise<MaskedCard[]> {
    try {
      const cards = await this.ready().getCards();
      return Array.isArray(cards) ? cards.flatMap(fromNetworkCard) : [];
    } catch (error) {
      throw normalise(error, 'CARDS_UNAVAILABLE');
    }
  }

  async checkout(input: CheckoutInput): Promise<CheckoutResult> {
    const sdk = this.ready();
    const pending = this.pending.get(input.srcDigitalCardId);
    let result: Record<string, unknown>;
    try {
      const dpaTransactionOptions = transactionOptions(input, this.locale);
      result = pending
        ? await sdk.checkoutWithNewCard({ encryptedCard: pending.encryptedCard, cardBrand: pending.brand.toLowerCase(), dpaTransactionOptions })
        : await sdk.checkoutWithCard({ srcDigitalCardId: input.srcDigitalCardId, dpaTransactionOptions });
    } catch (error) {
      throw normalise(error, 'CHECKOUT_FAILED');
    }
    if (result.checkoutActionCode === 'CANCEL') throw new SdkError('CHECKOUT_ABANDONED');
    if (result.checkoutActionCode !== 'COMPLETE') throw new SdkError('CHECKOUT_FAILED');
    return result;
  }

  async signOut(): Promise<void> {
    try {
      await this.sdk?.signOut();
    } catch {
      // best effort
    }
  }

  private ready(): MastercardSdk {
    if (!this.sdk) throw new SdkError('INIT_FAILED');
    return this.sdk;
  }
}

/** Visa's Unified Click to Pay covers the other networks' cards too, so it is preferred. */
export function createNetworkSdk(urls: NetworkSdkUrls | undefined, cardBrands: string[]): ClickToPaySdk | undefined {
  if (urls?.visa && cardBrands.includes('visa')) return new VisaClickToPaySdk(urls.visa);
  if (urls?.mastercard && cardBrands.includes('mastercard')) return new MastercardClickToPaySdk(urls.mastercard);
  if (urls?.visa) return new VisaClickToPaySdk(urls.visa);
  return undefined;
}
