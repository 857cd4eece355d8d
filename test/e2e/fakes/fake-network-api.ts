import type { FakeNetworkName } from './fake-network-keys.js';
import { FakeNetworkError, type FakeCard, type FakeNetworkState, type FakeSession } from './fake-network-state.js';

/**
 * The JSON calls each fake SDK script makes to its own origin, answered in the shape the SDK
 * method resolves with (the script passes the body through). The networks' real SDKs talk to
 * their back ends in ways that are not public: only the SDK-facing results follow a reference.
 * `prepare` parks a checkout for the DCF window (fake-network-server.ts serves it).
 */
export type Body = Record<string, unknown>;
export interface ApiAnswer {
  status: number;
  body: unknown;
}

/** EMVCo / network masked card, the fields juspay/hyperswitch-web reads (ClickToPayHelpers.res clickToPayCard). */
export function maskedCard(card: FakeCard): Body {
  return {
    srcDigitalCardId: card.srcDigitalCardId,
    panBin: card.panBin,
    panLastFour: card.panLastFour,
    panExpirationMonth: card.panExpirationMonth,
    panExpirationYear: card.panExpirationYear,
    paymentCardDescriptor: card.brand,
    digitalCardData: { status: 'ACTIVE', descriptorName: card.descriptorName },
  };
}

export async function answer(network: FakeNetworkName, state: FakeNetworkState, op: string, body: Body): Promise<ApiAnswer> {
  try {
    return { status: 200, body: await (network === 'visa' ? visa : mastercard)(state, op, body) };
  } catch (error) {
    if (!(error instanceof FakeNetworkError)) throw error;
    const failure = { reason: error.reason, message: `fake ${network} network: ${error.reason}` };
    // Visa's getCards resolves with actionCode ERROR and an error object (hyperswitch getCardsResultType).
    if (network === 'visa' && op === 'getCards') return { status: 200, body: { actionCode: 'ERROR', error: failure } };
    return { status: error.status, body: network === 'visa' ? { error: failure } : failure };
  }
}

async function prepare(state: FakeNetworkState, session: FakeSession, body: Body): Promise<Body> {
  const options = (body.dpaTransactionOptions ?? {}) as Body;
  const checkout = await state.prepare(session, {
    srcDigitalCardId: body.srcDigitalCardId,
    encryptedCard: body.encryptedCard,
    ...(options.transactionAmount ? { amount: options.transactionAmount as Body } : {}),
  });
  return { checkoutId: checkout.id };
}

/** Visa Unified Click to Pay: initialize, getCards (lookup + OTP + card list), checkout, unbindAppInstance. */
async function visa(state: FakeNetworkState, op: string, body: Body): Promise<unknown> {
  if (op === 'initialize') return { session: state.open(body.dpaId).id };
  const session = state.session(body.session);
  switch (op) {
    case 'getCards': {
      const identity = (body.consumerIdentity ?? {}) as Body;
      if (body.validationData !== undefined) {
        const cards = state.validate(session, body.validationData);
        return { actionCode: 'SUCCESS', profiles: [{ maskedCards: cards.map(maskedCard) }] };
      }
      const value = String(identity.identityValue ?? '');
      // The reference does not show the mobile number's format in identityValue: digits are compared.
      const known =
        identity.identityType === 'MOBILE_PHONE_NUMBER'
          ? state.lookup(session, { countryCode: '', phoneNumber: value })
          : identity.identityType === 'EMAIL_ADDRESS'
            ? state.lookup(session, { email: value })
            : (() => {
                throw new FakeNetworkError('INVALID_PARAMETER');
              })();
      // hyperswitch maps ADD_CARD to "no cards present": what the fake answers for an unknown consumer.
      if (!known) return { actionCode: 'ADD_CARD' };
      return { actionCode: 'PENDING_CONSUMER_IDV', maskedValidationChannel: state.sendCode(session) };
    }
    case 'prepare':
      return prepare(state, session, body);
    case 'unbindAppInstance':
      session.validated = false;
      session.consumerKnown = false;
      return {};
    default:
      throw new FakeNetworkError('INVALID_PARAMETER', 404);
  }
}

/** Mastercard Checkout Services: init, idLookup, initiateValidation, validate, getCards, checkout*, signOut. */
async function mastercard(state: FakeNetworkState, op: string, body: Body): Promise<unknown> {
  if (op === 'init') return { session: state.open(body.srcDpaId).id };
  const session = state.session(body.session);
  switch (op) {
    case 'idLookup': {
      const mobile = (body.mobileNumber ?? {}) as Body;
      if (typeof body.email !== 'string' && typeof mobile.phoneNumber !== 'string') throw new FakeNetworkError('ID_FORMAT_UNSUPPORTED');
      const present = state.lookup(session, {
        ...(typeof body.email === 'string' ? { email: body.email } : {}),
        countryCode: String(mobile.countryCode ?? ''),
        phoneNumber: String(mobile.phoneNumber ?? ''),
      });
      return { consumerPresent: present };
    }
    case 'initiateValidation':
      return {
        maskedValidationChannel: state.sendCode(session),
        supportedValidationChannels: [{ validationChannelId: 'EMAIL', maskedValidationChannel: 'c***@example.com' }],
      };
    case 'validate':
      return state.validate(session, body.value).map(maskedCard);
    case 'getCards':
      // An unrecognised consumer has no card list: an empty array, not an error.
      return session.validated ? state.list(session).map(maskedCard) : [];
    case 'prepare':
      return prepare(state, session, body);
    case 'signOut':
      session.validated = false;
      session.consumerKnown = false;
      return { recognized: false };
    default:
      throw new FakeNetworkError('INVALID_PARAMETER', 404);
  }
}
