import { compactDecrypt, exportJWK, generateKeyPair, importJWK } from 'jose';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The page's SDK loader appends a <script>; here the fake SDK object is put on `window` directly.
const loadScript = vi.fn(async (_src: string) => undefined);
vi.mock('../../web/src/sdk/load-script.js', () => ({ loadScript: (src: string) => loadScript(src) }));

const { VisaClickToPaySdk } = await import('../../web/src/sdk/visa-sdk.js');
const { MastercardClickToPaySdk } = await import('../../web/src/sdk/mastercard-sdk.js');
const { createNetworkSdk } = await import('../../web/src/sdk/network-sdk.js');

/**
 * The network SDK adapters (web/src/sdk/visa-sdk.ts, mastercard-sdk.ts) against stubbed
 * network SDK objects: every action code and error reason the references name, mapped to the
 * page's reasons; the browser suite (test/e2e/network-sdks.e2e.test.ts) runs the happy paths
 * against the fakes in Chromium.
 */
const INIT = {
  dpaId: 'dpa-1',
  dpaClientId: 'client-1',
  dpaName: 'Shop',
  cardBrands: ['visa', 'mastercard'],
  locale: 'en_AE',
  amount: { value: 149, currencyCode: 'AED' },
};
const NEW_CARD = {
  primaryAccountNumber: '4012888888881881',
  panExpirationMonth: '11',
  panExpirationYear: '2031',
  cardSecurityCode: '123',
  cardholderName: 'Nora Example',
  brand: 'VISA' as const,
};
const MASKED = {
  srcDigitalCardId: 'card-1',
  panLastFour: '1111',
  panExpirationMonth: '12',
  panExpirationYear: '2030',
  paymentCardDescriptor: 'visa',
  digitalCardData: { descriptorName: 'Visa Signature' },
};
const reason = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: { reason?: string }) => error.reason,
  );

let win: Record<string, unknown>;
beforeEach(() => {
  win = {};
  vi.stubGlobal('window', win);
  vi.stubGlobal('location', { href: 'https://pay.example/checkout' });
  loadScript.mockClear();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function visaStub(overrides: Record<string, unknown> = {}) {
  const vsdk = {
    initialize: vi.fn(async () => ({})),
    getCards: vi.fn(
      async (input: { validationData?: string }): Promise<Record<string, unknown>> =>
        input.validationData
          ? { actionCode: 'SUCCESS', profiles: [{ maskedCards: [MASKED] }] }
          : { actionCode: 'PENDING_CONSUMER_IDV', maskedValidationChannel: 'c***@example.com' },
    ),
    checkout: vi.fn(async (_input: Record<string, unknown>): Promise<Record<string, unknown>> => ({ actionCode: 'SUCCESS', checkoutResponse: 'jws' })),
    unbindAppInstance: vi.fn(async () => ({})),
    ...overrides,
  };
  win.VSDK = vsdk;
  return vsdk;
}

describe('Visa (VSDK)', () => {
  it('loads sdk.js with dpaId, dpaClientId and cardBrands, and initializes with the transaction options', async () => {
    const vsdk = visaStub();
    await new VisaClickToPaySdk('https://sdk.visa.example/sdk.js').init(INIT);
    const url = new URL(loadScript.mock.calls[0]![0]);
    expect(Object.fromEntries(url.searchParams)).toEqual({ dpaId: 'dpa-1', dpaClientId: 'client-1', cardBrands: 'visa,mastercard' });
    expect(vsdk.initialize).toHaveBeenCalledWith({
      dpaTransactionOptions: { dpaLocale: 'en_AE', transactionAmount: { transactionAmount: '149', transactionCurrencyCode: 'AED' } },
    });
  });

  it('INIT_FAILED when the script defines no VSDK or initialize rejects', async () => {
    expect(await reason(new VisaClickToPaySdk('https://sdk.visa.example/sdk.js').init(INIT))).toBe('INIT_FAILED');
    visaStub({ initialize: vi.fn(async () => Promise.reject({ reason: 'INVALID_PARAMETER' })) });
    expect(await reason(new VisaClickToPaySdk('https://sdk.visa.example/sdk.js').init(INIT))).toBe('INIT_FAILED');
  });

  it('lookup: PENDING_CONSUMER_IDV asks for the code, ADD_CARD means no profile, ERROR and unknown codes fail', async () => {
    const vsdk = visaStub();
    const sdk = new VisaClickToPaySdk('https://sdk.visa.example/sdk.js');
    await sdk.init(INIT);
    expect(await sdk.identityLookup({ type: 'EMAIL', value: 'a@example.com' })).toEqual({
      consumerPresent: true,
      validation: { maskedChannel: 'c***@example.com', channel: 'EMAIL' },
    });
    expect(vsdk.getCards).toHaveBeenLastCalledWith({
      consumerIdentity: { identityProvider: 'SRC', identityType: 'EMAIL_ADDRESS', identityValue: 'a@example.com' },
    });
    vsdk.getCards.mockResolvedValueOnce({ actionCode: 'ADD_CARD' });
    expect(await sdk.identityLookup({ type: 'MOBILE_NUMBER', value: '+971500000009', countryCode: '971', nationalNumber: '500000009' })).toEqual({
      consumerPresent: false,
    });
    expect(vsdk.getCards.mock.calls.at(-1)![0]).toMatchObject({ consumerIdentity: { identityType: 'MOBILE_PHONE_NUMBER', identityValue: '+971500000009' } });
    vsdk.getCards.mockResolvedValueOnce({ actionCode: 'ERROR', error: { reason: 'ACCT_INACCESSIBLE' } });
    expect(await reason(sdk.identityLookup({ type: 'EMAIL', value: 'a@example.com' }))).toBe('ACCOUNT_LOCKED');
    vsdk.getCards.mockResolvedValueOnce({ actionCode: 'SOMETHING_NEW' });
    expect(await reason(sdk.identityLookup({ type: 'EMAIL', value: 'a@example.com' }))).toBe('UNKNOWN');
  });

  it('code: getCards with validationData; CODE_INVALID / RETRIES_EXCEEDED reach the page as its reasons; SUCCESS lists the cards', async () => {
    const vsdk = visaStub();
    const sdk = new VisaClickToPaySdk('https://sdk.visa.example/sdk.js');
    await sdk.init(INIT);
    await sdk.identityLookup({ type: 'EMAIL', value: 'a@example.com' });
    vsdk.getCards.mockResolvedValueOnce({ actionCode: 'ERROR', error: { reason: 'CODE_INVALID', message: 'x' } });
    expect(await reason(sdk.validateOtp('000000'))).toBe('OTP_INVALID');
    vsdk.getCards.mockResolvedValueOnce({ actionCode: 'ERROR', error: { reason: 'RETRIES_EXCEEDED' } });
    expect(await reason(sdk.validateOtp('000000'))).toBe('RETRIES_EXCEEDED');
    await sdk.validateOtp('246810');
    expect(vsdk.getCards).toHaveBeenLastCalledWith(expect.objectContaining({ validationData: '246810' }));
    expect(await sdk.getCards()).toEqual([
      { srcDigitalCardId: 'card-1', brand: 'VISA', panLastFour: '1111', panExpirationMonth: '12', panExpirationYear: '2030', descriptorName: 'Visa Signature' },
    ]);
  });

  it('checkout: SUCCESS passes the result on unmodified; CHANGE_CARD, SWITCH_CONSUMER, ERROR and a rejection map to the page reasons', async () => {
    const vsdk = visaStub();
    const sdk = new VisaClickToPaySdk('https://sdk.visa.example/sdk.js');
    await sdk.init(INIT);
    const input = { srcDigitalCardId: 'card-1', amount: { value: 149, currencyCode: 'AED' } };
    vsdk.checkout.mockResolvedValueOnce({ actionCode: 'SUCCESS', checkoutResponse: 'jws', extra: 1 });
    expect(await sdk.checkout(input)).toEqual({ actionCode: 'SUCCESS', checkoutResponse: 'jws', extra: 1 });
    expect(vsdk.checkout).toHaveBeenLastCalledWith(expect.objectContaining({ srcDigitalCardId: 'card-1' }));
    for (const [answer, expected] of [
      [{ actionCode: 'CHANGE_CARD' }, 'CHECKOUT_ABANDONED'],
      [{ actionCode: 'SWITCH_CONSUMER' }, 'NOT_AUTHENTICATED'],
      [{ actionCode: 'ERROR', error: { reason: 'SERVICE_ERROR' } }, 'CHECKOUT_FAILED'],
      [{ actionCode: 'PENDING_CONSUMER_IDV' }, 'CHECKOUT_FAILED'],
    ] as const) {
      vsdk.checkout.mockResolvedValueOnce(answer as never);
      expect(await reason(sdk.checkout(input)), answer.actionCode).toBe(expected);
    }
    vsdk.checkout.mockRejectedValueOnce({ reason: 'AUTH_INVALID' });
    expect(await reason(sdk.checkout(input))).toBe('NOT_AUTHENTICATED');
  });

  it('a new card is JWE-encrypted to the key Visa issued (visa-card-key), fetched once, and checked out as encryptedCard', async () => {
    const vsdk = visaStub();
    const { publicKey, privateKey } = await generateKeyPair('RSA-OAEP-256', { extractable: true });
    const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: 'VISA-KID-1', use: 'enc' }] };
    const fetch = vi.fn(async () => new Response(JSON.stringify(jwks)));
    vi.stubGlobal('fetch', fetch);
    const sdk = new VisaClickToPaySdk('https://sdk.visa.example/sdk.js', 'https://keys.visa.example/card');
    await sdk.init(INIT);
    await sdk.identityLookup({ type: 'EMAIL', value: 'a@example.com' });
    const masked = await sdk.enrollCard(NEW_CARD);
    await sdk.enrollCard(NEW_CARD);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(masked).toMatchObject({ brand: 'VISA', panLastFour: '1881' });
    await sdk.checkout({ srcDigitalCardId: masked.srcDigitalCardId, amount: { value: 149, currencyCode: 'AED' } });
    const sent = vsdk.checkout.mock.calls.at(-1)![0];
    expect(sent).not.toHaveProperty('srcDigitalCardId');
    expect(sent.consumer).toEqual({ consumerIdentity: { identityProvider: 'SRC', identityType: 'EMAIL_ADDRESS', identityValue: 'a@example.com' } });
    const { plaintext, protectedHeader } = await compactDecrypt(sent.encryptedCard as string, await importJWK(await exportJWK(privateKey), 'RSA-OAEP-256'));
    expect(protectedHeader).toMatchObject({ alg: 'RSA-OAEP-256', kid: 'VISA-KID-1' });
    expect(JSON.parse(new TextDecoder().decode(plaintext))).toEqual({
      primaryAccountNumber: '4012888888881881',
      panExpirationMonth: '11',
      panExpirationYear: '2031',
      cardSecurityCode: '123',
      cardHolderName: 'Nora Example',
    });
  });

  it('no configured Visa card key, or one that cannot be fetched: the card is not enrolled (never encrypted to another key)', async () => {
    visaStub();
    const withoutKey = new VisaClickToPaySdk('https://sdk.visa.example/sdk.js');
    await withoutKey.init(INIT);
    expect(await reason(withoutKey.enrollCard(NEW_CARD))).toBe('UNKNOWN');
    const down = vi.fn(async () => new Response('nope', { status: 503 }));
    vi.stubGlobal('fetch', down);
    const unreachable = new VisaClickToPaySdk('https://sdk.visa.example/sdk.js', 'https://keys.visa.example/card');
    await unreachable.init(INIT);
    expect(await reason(unreachable.enrollCard(NEW_CARD))).toBe('UNKNOWN');
    expect(await reason(unreachable.enrollCard(NEW_CARD))).toBe('UNKNOWN');
    expect(down).toHaveBeenCalledTimes(2); // a failed fetch is not cached
    // A JWKS without an RSA encryption key that has a kid is no key at all.
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(
            JSON.stringify({
              keys: [
                { kty: 'EC', kid: 'x' },
                { kty: 'RSA', n: 'AQAB', e: 'AQAB', use: 'sig', kid: 'y' },
              ],
            }),
          ),
      ),
    );
    const unusable = new VisaClickToPaySdk('https://sdk.visa.example/sdk.js', 'https://keys.visa.example/card');
    await unusable.init(INIT);
    expect(await reason(unusable.enrollCard(NEW_CARD))).toBe('UNKNOWN');
  });
});

function mastercardStub(overrides: Record<string, unknown> = {}) {
  const services = {
    init: vi.fn(async () => ({})),
    idLookup: vi.fn(async () => ({ consumerPresent: true })),
    initiateValidation: vi.fn(async () => ({ maskedValidationChannel: 'c***@example.com' })),
    validate: vi.fn(async () => [{ ...MASKED, paymentCardDescriptor: 'mastercard', panLastFour: '4444' }]),
    getCards: vi.fn(async () => [{ ...MASKED, paymentCardDescriptor: 'mastercard', panLastFour: '4444' }]),
    encryptCard: vi.fn(async () => ({ encryptedCard: 'jwe-from-mastercard', cardBrand: 'mastercard' })),
    checkoutWithCard: vi.fn(async () => ({ checkoutActionCode: 'COMPLETE', checkoutResponse: 'jws' })),
    checkoutWithNewCard: vi.fn(async () => ({ checkoutActionCode: 'COMPLETE', checkoutResponse: 'jws' })),
    signOut: vi.fn(async () => ({})),
    ...overrides,
  };
  win.MastercardCheckoutServices = function MastercardCheckoutServices() {
    return services;
  };
  const dcf = { closed: false, close: vi.fn(() => (dcf.closed = true)) };
  win.open = vi.fn(() => dcf);
  return { services, dcf };
}

describe('Mastercard (MastercardCheckoutServices)', () => {
  async function ready(overrides: Record<string, unknown> = {}) {
    const stub = mastercardStub(overrides);
    const sdk = new MastercardClickToPaySdk('https://src.mastercard.example/srci/integration/2/lib.js');
    await sdk.init(INIT);
    return { sdk, ...stub };
  }

  it('init with srcDpaId, dpaData, transaction options and card brands; INIT_FAILED when it rejects', async () => {
    const { services } = await ready();
    expect(services.init).toHaveBeenCalledWith(
      expect.objectContaining({ srcDpaId: 'dpa-1', dpaData: { dpaName: 'Shop' }, cardBrands: ['visa', 'mastercard'], checkoutExperience: 'WITHIN_CHECKOUT' }),
    );
    mastercardStub({ init: vi.fn(async () => Promise.reject({ reason: 'INVALID_PARAMETER' })) });
    expect(await reason(new MastercardClickToPaySdk('https://src.mastercard.example/lib.js').init(INIT))).toBe('INIT_FAILED');
  });

  it('lookup: idLookup by email or mobile number; an absent consumer gets no code; then the code is validated as the bare value', async () => {
    const { sdk, services } = await ready();
    services.idLookup.mockResolvedValueOnce({ consumerPresent: false });
    expect(await sdk.identityLookup({ type: 'EMAIL', value: 'a@example.com' })).toEqual({ consumerPresent: false });
    expect(services.initiateValidation).not.toHaveBeenCalled();
    expect(await sdk.identityLookup({ type: 'MOBILE_NUMBER', value: '+971500000009', countryCode: '971', nationalNumber: '500000009' })).toEqual({
      consumerPresent: true,
      validation: { maskedChannel: 'c***@example.com', channel: 'SMS' },
    });
    expect(services.idLookup).toHaveBeenLastCalledWith({ mobileNumber: { countryCode: '971', phoneNumber: '500000009' } });
    services.validate.mockRejectedValueOnce({ reason: 'CODE_INVALID' });
    expect(await reason(sdk.validateOtp('000000'))).toBe('OTP_INVALID');
    await sdk.validateOtp('246810');
    expect(services.validate).toHaveBeenLastCalledWith('246810');
    services.idLookup.mockRejectedValueOnce({ reason: 'ID_FORMAT_UNSUPPORTED' });
    expect(await reason(sdk.identityLookup({ type: 'EMAIL', value: 'x' }))).toBe('INVALID_IDENTITY');
  });

  it('checkout opens the DCF window before anything is awaited, passes it as windowRef and closes it after; CANCEL / CHANGE_CARD / SWITCH_CONSUMER / ERROR map', async () => {
    const { sdk, services, dcf } = await ready();
    const input = { srcDigitalCardId: 'card-1', amount: { value: 149, currencyCode: 'AED' } };
    const pending = sdk.checkout(input);
    expect(win.open).toHaveBeenCalledTimes(1); // synchronously, inside the click's user activation
    expect(await pending).toEqual({ checkoutActionCode: 'COMPLETE', checkoutResponse: 'jws' });
    expect(services.checkoutWithCard).toHaveBeenCalledWith(expect.objectContaining({ windowRef: dcf, srcDigitalCardId: 'card-1' }));
    expect(dcf.close).toHaveBeenCalled();
    for (const [code, expected] of [
      ['CANCEL', 'CHECKOUT_ABANDONED'],
      ['CHANGE_CARD', 'CHECKOUT_ABANDONED'],
      ['SWITCH_CONSUMER', 'NOT_AUTHENTICATED'],
      ['ERROR', 'CHECKOUT_FAILED'],
      ['PAY_V3_CARD', 'CHECKOUT_FAILED'],
    ] as const) {
      services.checkoutWithCard.mockResolvedValueOnce({ checkoutActionCode: code } as never);
      expect(await reason(sdk.checkout(input)), code).toBe(expected);
    }
  });

  it('a blocked DCF window fails the checkout without calling the SDK', async () => {
    const { sdk, services } = await ready();
    win.open = vi.fn(() => null);
    expect(await reason(sdk.checkout({ srcDigitalCardId: 'card-1', amount: { value: 1, currencyCode: 'AED' } }))).toBe('CHECKOUT_FAILED');
    expect(services.checkoutWithCard).not.toHaveBeenCalled();
  });

  it('a new card is encrypted by the SDK (encryptCard, Mastercard key) and checked out with checkoutWithNewCard; encryptCard failing is INVALID_CARD', async () => {
    const { sdk, services } = await ready();
    const masked = await sdk.enrollCard({ ...NEW_CARD, primaryAccountNumber: '5105105105105100', brand: 'MASTERCARD' });
    expect(services.encryptCard).toHaveBeenCalledWith({
      primaryAccountNumber: '5105105105105100',
      panExpirationMonth: '11',
      panExpirationYear: '2031',
      cardSecurityCode: '123',
      cardholderFirstName: 'Nora',
      cardholderLastName: 'Example',
    });
    await sdk.checkout({ srcDigitalCardId: masked.srcDigitalCardId, amount: { value: 1, currencyCode: 'AED' } });
    expect(services.checkoutWithNewCard).toHaveBeenCalledWith(expect.objectContaining({ encryptedCard: 'jwe-from-mastercard', cardBrand: 'mastercard' }));
    expect(services.checkoutWithCard).not.toHaveBeenCalled();
    services.encryptCard.mockRejectedValueOnce({ reason: 'CARD_INVALID' });
    expect(await reason(sdk.enrollCard(NEW_CARD))).toBe('INVALID_CARD');
  });
});

describe('which network SDK a production merchant gets', () => {
  it('Visa when the merchant accepts Visa and its SDK is configured, else Mastercard, else none', () => {
    const urls = { visa: 'https://v.example/sdk.js', mastercard: 'https://m.example/lib.js' };
    expect(createNetworkSdk(urls, ['visa', 'mastercard'])).toBeInstanceOf(VisaClickToPaySdk);
    expect(createNetworkSdk(urls, ['mastercard'])).toBeInstanceOf(MastercardClickToPaySdk);
    expect(createNetworkSdk({ mastercard: urls.mastercard }, ['visa'])).toBeUndefined();
    expect(createNetworkSdk(undefined, ['visa'])).toBeUndefined();
  });
});
