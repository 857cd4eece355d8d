import { loadScript } from './load-script.js';
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
  type SdkInitOptions,
} from './types.js';

/**
 * Mastercard Checkout Services (`lib.js`, `new MastercardCheckoutServices()`). Sources:
 *  - juspay/hyperswitch-web src/Types/ClickToPayHelpers.res: init({ srcDpaId, dpaData: { dpaName },
 *    dpaTransactionOptions, cardBrands, checkoutExperience: "WITHIN_CHECKOUT" }); getCards() →
 *    masked cards; encryptCard({ primaryAccountNumber, panExpirationMonth, panExpirationYear,
 *    cardSecurityCode }) → { encryptedCard, cardBrand }; checkoutWithCard({ windowRef,
 *    srcDigitalCardId, rememberMe }); checkoutWithNewCard({ windowRef, cardBrand, encryptedCard,
 *    rememberMe, … }) → checkoutActionCode COMPLETE | CANCEL | ERROR | PAY_V3_CARD; signOut().
 *    The integrator opens the DCF window itself (window.open) and passes it as windowRef.
 *  - wellingtonsilverio/react-clicktopay src/lib/functions: idLookup({ email, mobileNumber:
 *    { countryCode, phoneNumber } }) → consumerPresent; initiateValidation({
 *    requestedValidationChannelId }); validate(<code>) — the code itself, not an object.
 *  - developer.mastercard.com "Perform Encryption": new cards are encrypted with the FPAN key
 *    Mastercard publishes; encryptCard does it, so the page never picks a key for Mastercard.
 * CHANGE_CARD and SWITCH_CONSUMER are handled as EMVCo names them (back to the card list /
 * sign in again); Mastercard's pages seen do not list them for checkoutWithCard.
 */
interface MastercardSdk {
  init(input: Record<string, unknown>): Promise<unknown>;
  idLookup(input: Record<string, unknown>): Promise<{ consumerPresent?: boolean }>;
  initiateValidation(input?: Record<string, unknown>): Promise<{ maskedValidationChannel?: string }>;
  validate(code: string): Promise<unknown>;
  getCards(): Promise<unknown>;
  encryptCard(card: Record<string, unknown>): Promise<{ encryptedCard?: unknown; cardBrand?: unknown }>;
  checkoutWithCard(input: Record<string, unknown>): Promise<Record<string, unknown>>;
  checkoutWithNewCard(input: Record<string, unknown>): Promise<Record<string, unknown>>;
  signOut(input?: Record<string, unknown>): Promise<unknown>;
}

interface EncryptedNewCard {
  encryptedCard: unknown;
  cardBrand: string;
}

/** The DCF window: opened by us while the click that asked for it still counts as a user gesture. */
const DCF_WINDOW = { name: 'mastercard-dcf', features: 'popup,width=480,height=640' };

export class MastercardClickToPaySdk implements ClickToPaySdk {
  private sdk: MastercardSdk | undefined;
  private channel: 'EMAIL' | 'SMS' = 'EMAIL';
  private locale = 'en_US';
  private cards: MaskedCard[] = [];
  private readonly pending = new PendingCards<EncryptedNewCard>();

  constructor(private readonly src: string) {}

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
        dpaTransactionOptions: transactionOptions(options.amount, options.locale),
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
        identity.type === 'EMAIL' ? { email: identity.value } : { mobileNumber: { countryCode: identity.countryCode, phoneNumber: identity.nationalNumber } },
      );
      if (lookup.consumerPresent !== true) return { consumerPresent: false };
      this.channel = identity.type === 'EMAIL' ? 'EMAIL' : 'SMS';
      const sent = await sdk.initiateValidation({ requestedValidationChannelId: this.channel });
      return { consumerPresent: true, validation: { maskedChannel: String(sent.maskedValidationChannel ?? ''), channel: this.channel } };
    } catch (error) {
      throw normalise(error, 'UNKNOWN');
    }
  }

  async validateOtp(otp: string): Promise<{ consumer: MaskedConsumer }> {
    try {
      const cards = await this.ready().validate(otp);
      this.cards = Array.isArray(cards) ? cards.flatMap(fromNetworkCard) : [];
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
      this.cards = Array.isArray(cards) ? cards.flatMap(fromNetworkCard) : this.cards;
      return this.cards;
    } catch (error) {
      throw normalise(error, 'CARDS_UNAVAILABLE');
    }
  }

  async enrollCard(card: NewCard): Promise<MaskedCard> {
    let encrypted: { encryptedCard?: unknown; cardBrand?: unknown };
    try {
      const [firstName, ...rest] = card.cardholderName.trim().split(/\s+/);
      encrypted = await this.ready().encryptCard({
        primaryAccountNumber: card.primaryAccountNumber,
        panExpirationMonth: card.panExpirationMonth,
        panExpirationYear: card.panExpirationYear,
        cardSecurityCode: card.cardSecurityCode,
        cardholderFirstName: firstName ?? '',
        cardholderLastName: rest.join(' '),
      });
    } catch (error) {
      throw normalise(error, 'INVALID_CARD');
    }
    if (!encrypted.encryptedCard) throw new SdkError('INVALID_CARD');
    const cardBrand = typeof encrypted.cardBrand === 'string' ? encrypted.cardBrand : card.brand.toLowerCase();
    return this.pending.add({ encryptedCard: encrypted.encryptedCard, cardBrand }, card);
  }

  /** Opens the DCF window before the first await (a popup needs the click's user activation). */
  async checkout(input: CheckoutInput): Promise<CheckoutResult> {
    const sdk = this.ready();
    const windowRef = window.open('', DCF_WINDOW.name, DCF_WINDOW.features);
    if (!windowRef) throw new SdkError('CHECKOUT_FAILED');
    const newCard = this.pending.get(input.srcDigitalCardId);
    const dpaTransactionOptions = transactionOptions(input.amount, this.locale);
    let result: Record<string, unknown>;
    try {
      result = newCard
        ? await sdk.checkoutWithNewCard({
            windowRef,
            encryptedCard: newCard.encryptedCard,
            cardBrand: newCard.cardBrand,
            rememberMe: false,
            dpaTransactionOptions,
          })
        : await sdk.checkoutWithCard({ windowRef, srcDigitalCardId: input.srcDigitalCardId, rememberMe: false, dpaTransactionOptions });
    } catch (error) {
      throw normalise(error, 'CHECKOUT_FAILED');
    } finally {
      if (!windowRef.closed) windowRef.close();
    }
    switch (result.checkoutActionCode) {
      case 'COMPLETE':
        return result;
      case 'CANCEL':
      case 'CHANGE_CARD':
        throw new SdkError('CHECKOUT_ABANDONED');
      case 'SWITCH_CONSUMER':
        throw new SdkError('NOT_AUTHENTICATED');
      default:
        throw new SdkError('CHECKOUT_FAILED');
    }
  }

  async signOut(): Promise<void> {
    this.cards = [];
    this.pending.clear();
    try {
      await this.sdk?.signOut();
    } catch {
      // Best effort: the page forgets the identity either way.
    }
  }

  private ready(): MastercardSdk {
    if (!this.sdk) throw new SdkError('INIT_FAILED');
    return this.sdk;
  }
}
