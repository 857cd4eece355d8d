import { encryptNewCard } from './encrypt-card.js';
import { loadScript } from './load-script.js';
import { VisaCardKey } from './visa-card-key.js';
import { fromNetworkCard, normalise, PendingCards, transactionOptions, withParams } from './network-common.js';
import {
  SdkError,
  type CheckoutInput,
  type CheckoutResult,
  type ClickToPaySdk,
  type ConsumerIdentity,
  type LookupResult,
  type MaskedCard,
  type MaskedConsumer,
  type NewCard,
  type SdkErrorReason,
  type SdkInitOptions,
} from './types.js';

/**
 * Visa Unified Click to Pay (`sdk.js`, global `VSDK`). Sources:
 *  - developer.visa.com "JavaScript Reference - Unified Click to Pay": the script URL carries
 *    dpaId, cardBrands (comma-separated) and dpaClientId.
 *  - juspay/hyperswitch-web src/Types/ClickToPayHelpers.res: initialize({ dpaTransactionOptions })
 *    (transactionAmount as a string); getCards({ consumerIdentity: { identityProvider: "SRC",
 *    identityType: EMAIL_ADDRESS | MOBILE_PHONE_NUMBER, identityValue }, validationData? }) →
 *    actionCode SUCCESS (profiles[].maskedCards) | PENDING_CONSUMER_IDV (maskedValidationChannel)
 *    | ADD_CARD (no cards) | ERROR (error.reason) | FAILED; checkout({ srcDigitalCardId |
 *    encryptedCard, consumer?, dpaTransactionOptions }) → { actionCode: SUCCESS,
 *    checkoutResponse }; unbindAppInstance().
 *  - New cards: JWE (RSA-OAEP-256) of { primaryAccountNumber, panExpirationMonth,
 *    panExpirationYear, cardSecurityCode, cardHolderName } to a key Visa issues, with the kid
 *    Visa assigned (hyperswitch src/Utilities/ClickToPayCardEncryptionHelpers.js; Cybersource's
 *    Unified Click to Pay guide, checkout(): "a per-network RSA JWK"). Visa does not publish it
 *    at a URL the SDK names: the operator configures where it is served (`visa-card-key` in
 *    CLICK_TO_PAY_SDK_URLS, a JWKS), and never our 4.2 key — Visa could not open that.
 * Silent in the reference: whether a repeated getCards without validationData sends a new code
 * (resendOtp assumes so); what a mobile identityValue looks like (E.164 is sent).
 */
interface VisaSdk {
  initialize(input: Record<string, unknown>): Promise<unknown>;
  getCards(input: Record<string, unknown>): Promise<Record<string, unknown>>;
  checkout(input: Record<string, unknown>): Promise<Record<string, unknown>>;
  unbindAppInstance?(input?: Record<string, unknown>): Promise<unknown>;
}

export class VisaClickToPaySdk implements ClickToPaySdk {
  private sdk: VisaSdk | undefined;
  private identity: Record<string, string> | undefined;
  private cards: MaskedCard[] = [];
  private consumer: MaskedConsumer = {};
  private locale = 'en_US';
  private readonly pending = new PendingCards<string>();
  private readonly cardKey: VisaCardKey;

  constructor(
    private readonly src: string,
    cardKeyUrl?: string,
  ) {
    this.cardKey = new VisaCardKey(cardKeyUrl);
  }

  async init(options: SdkInitOptions): Promise<void> {
    try {
      await loadScript(withParams(this.src, { dpaId: options.dpaId, dpaClientId: options.dpaClientId, cardBrands: options.cardBrands.join(',') }));
      const sdk = (window as unknown as { VSDK?: VisaSdk }).VSDK;
      if (!sdk) throw new SdkError('INIT_FAILED');
      this.locale = options.locale;
      await sdk.initialize({ dpaTransactionOptions: transactionOptions(options.amount, options.locale, true) });
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
    if (result.actionCode === 'PENDING_CONSUMER_IDV') {
      const masked = String(result.maskedValidationChannel ?? '');
      return { consumerPresent: true, validation: { maskedChannel: masked, channel: masked.includes('@') ? 'EMAIL' : 'SMS' } };
    }
    if (result.actionCode === 'SUCCESS') {
      this.capture(result);
      return { consumerPresent: true };
    }
    if (result.actionCode === 'ADD_CARD') return { consumerPresent: false };
    throw new SdkError('UNKNOWN');
  }

  async validateOtp(otp: string): Promise<{ consumer: MaskedConsumer }> {
    const result = await this.getCardsCall({ consumerIdentity: this.identity, validationData: otp }, 'OTP_INVALID');
    if (result.actionCode !== 'SUCCESS') throw new SdkError('OTP_INVALID');
    this.capture(result);
    return { consumer: this.consumer };
  }

  async resendOtp(): Promise<{ maskedChannel: string }> {
    const result = await this.getCardsCall({ consumerIdentity: this.identity }, 'RESEND_LIMIT');
    if (result.actionCode !== 'PENDING_CONSUMER_IDV') throw new SdkError('RESEND_LIMIT');
    return { maskedChannel: String(result.maskedValidationChannel ?? '') };
  }

  async getCards(): Promise<MaskedCard[]> {
    return this.cards;
  }

  async enrollCard(card: NewCard): Promise<MaskedCard> {
    const key = await this.cardKey.get();
    const encryptedCard = await encryptNewCard(card, key, 'cardHolderName');
    return this.pending.add(encryptedCard, card);
  }

  async checkout(input: CheckoutInput): Promise<CheckoutResult> {
    const sdk = this.ready();
    const encryptedCard = this.pending.get(input.srcDigitalCardId);
    let result: Record<string, unknown>;
    try {
      result = await sdk.checkout({
        ...(encryptedCard ? { encryptedCard, consumer: { consumerIdentity: this.identity } } : { srcDigitalCardId: input.srcDigitalCardId }),
        dpaTransactionOptions: transactionOptions(input.amount, this.locale, true),
      });
    } catch (error) {
      throw normalise(error, 'CHECKOUT_FAILED');
    }
    switch (result.actionCode) {
      case 'SUCCESS':
        return result;
      case 'CHANGE_CARD':
        throw new SdkError('CHECKOUT_ABANDONED');
      case 'SWITCH_CONSUMER':
        throw new SdkError('NOT_AUTHENTICATED');
      case 'ERROR':
        throw normalise(result, 'CHECKOUT_FAILED');
      default:
        throw new SdkError('CHECKOUT_FAILED');
    }
  }

  async signOut(): Promise<void> {
    this.identity = undefined;
    this.cards = [];
    this.consumer = {};
    this.pending.clear();
    try {
      await this.sdk?.unbindAppInstance?.();
    } catch {
      // Best effort: the page forgets the identity either way.
    }
  }

  private ready(): VisaSdk {
    if (!this.sdk) throw new SdkError('INIT_FAILED');
    return this.sdk;
  }

  /** getCards answers errors as actionCode ERROR (resolved), or rejects: both become SdkError. */
  private async getCardsCall(input: Record<string, unknown>, fallback: SdkErrorReason): Promise<Record<string, unknown>> {
    const sdk = this.ready();
    let result: Record<string, unknown>;
    try {
      result = await sdk.getCards(input);
    } catch (error) {
      throw normalise(error, fallback);
    }
    if (result.actionCode === 'ERROR' || result.actionCode === 'FAILED') throw normalise(result, fallback);
    return result;
  }

  private capture(result: Record<string, unknown>): void {
    const profiles = Array.isArray(result.profiles) ? (result.profiles as Record<string, unknown>[]) : [];
    this.cards = profiles.flatMap((profile) => (Array.isArray(profile.maskedCards) ? profile.maskedCards.flatMap(fromNetworkCard) : []));
    const consumer = (profiles[0]?.maskedConsumer ?? {}) as Record<string, unknown>;
    this.consumer = typeof consumer.emailAddress === 'string' ? { maskedEmail: consumer.emailAddress } : {};
  }
}
