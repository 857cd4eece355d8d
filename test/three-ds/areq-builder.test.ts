import { describe, expect, it } from 'vitest';
import { buildAReq } from '../../lib/adapters/three-ds/threedsecure-io/areq.js';
import { acceptLanguages, browserFields, colorDepth, fitLanguage } from '../../lib/adapters/three-ds/threedsecure-io/browser-fields.js';
import { chooseMessageVersion } from '../../lib/adapters/three-ds/threedsecure-io/message-version.js';
import { erroSummary } from '../../lib/adapters/three-ds/threedsecure-io/http.js';
import { purchaseFields, UnknownCurrencyError } from '../../lib/adapters/three-ds/threedsecure-io/purchase.js';
import { threeDsRequestorSchema } from '../../lib/core/domain/three-ds-requestor.js';
import { requestorFor } from '../../lib/core/domain/three-ds-requestor-profile.js';
import type { CompleteAuthenticationRequest as AuthenticationRequest } from '../../lib/adapters/three-ds/threedsecure-io/areq.js';
import { testAccount } from '../fakes/three-ds-server/index.js';
import { BROWSER, REQUESTOR } from './support.js';

const TOKEN = testAccount('2100');
const request = (overrides: Partial<AuthenticationRequest> = {}): AuthenticationRequest => ({
  transactionId: '6b91f61e-9e62-4f5c-ab8c-f1ffb84122cb',
  messageVersion: '2.2.0',
  brand: 'VISA',
  account: { number: TOKEN, expiryMonth: '09', expiryYear: '2031' },
  amount: { value: 1050, currencyCode: 'AED' },
  purchaseDate: new Date('2026-11-25T10:11:12.345Z'),
  requestor: REQUESTOR,
  browser: BROWSER,
  threeDSCompInd: 'Y',
  notificationUrl: 'https://pay.example.com/checkout/3ds-notification',
  ...overrides,
});

describe('the AReq', () => {
  it('carries the network token as acctNumber with its expiry, the payment, the merchant and the browser', () => {
    expect(buildAReq(request())).toMatchObject({
      messageType: 'AReq',
      messageVersion: '2.2.0',
      messageCategory: '01',
      deviceChannel: '02',
      threeDSCompInd: 'Y',
      threeDSRequestorAuthenticationInd: '01',
      threeDSRequestorChallengeInd: '01',
      transType: '01',
      acctNumber: TOKEN,
      cardExpiryDate: '3109',
      ds: 'visa',
      purchaseAmount: '1050',
      purchaseCurrency: '784',
      purchaseExponent: '2',
      purchaseDate: '20261125101112',
      threeDSRequestorID: 'VISA-REQ-0001',
      threeDSRequestorName: 'Demo Gateway',
      threeDSRequestorURL: 'https://shop.example.com',
      acquirerBIN: '438309',
      acquirerMerchantID: '00002000000',
      mcc: '5411',
      merchantName: 'Demo Shop',
      merchantCountryCode: '784',
      browserAcceptHeader: BROWSER.acceptHeader,
      browserUserAgent: BROWSER.userAgent,
      browserIP: '203.0.113.7',
      browserLanguage: 'en-GB',
      browserColorDepth: '24',
      browserScreenHeight: '1080',
      browserScreenWidth: '1920',
      browserTZ: '-240',
      browserJavaEnabled: false,
      browserJavascriptEnabled: true,
      notificationURL: 'https://pay.example.com/checkout/3ds-notification',
    });
  });

  it('2.2.0 has neither acceptLanguage nor the acquirer country; 2.3.1 has both and the challenge indicator as an array', () => {
    const v220 = buildAReq(request());
    expect(v220).not.toHaveProperty('acceptLanguage');
    expect(v220).not.toHaveProperty('acquirerCountryCode');
    const v231 = buildAReq(request({ messageVersion: '2.3.1' }));
    expect(v231).toMatchObject({
      messageVersion: '2.3.1',
      acceptLanguage: ['en-GB', 'en', 'ar'],
      acquirerCountryCode: '784',
      acquirerCountryCodeSource: '01',
      threeDSRequestorChallengeInd: ['01'],
    });
  });

  it('names the directory server of the token’s brand', () => {
    expect(buildAReq(request({ brand: 'MASTERCARD' })).ds).toBe('mastercard');
    expect(buildAReq(request({ brand: 'DISCOVER' })).ds).toBe('protectbuy');
  });

  it('an e-mail goes when the order has one', () => {
    expect(buildAReq(request({ email: 'shopper@example.com' })).email).toBe('shopper@example.com');
    expect(buildAReq(request())).not.toHaveProperty('email');
  });

  it('an e-mail the table would refuse is left out, not a reason to fail the authentication', () => {
    expect(buildAReq(request({ email: 'not an e-mail' }))).not.toHaveProperty('email');
    expect(buildAReq(request({ email: `${'a'.repeat(250)}@example.com` }))).not.toHaveProperty('email');
  });

  it('refuses what the table would refuse, naming the field and never the account number', () => {
    expect(() => buildAReq(request({ requestor: { ...REQUESTOR, acquirerBIN: '123456789012' } }))).toThrow(/acquirerBIN/);
    expect(() => buildAReq(request({ notificationUrl: 'http://pay.example.com/n', messageVersion: '2.3.1' }))).toThrow(/notificationURL/);
    try {
      buildAReq(request({ account: { number: '12345', expiryMonth: '09', expiryYear: '2031' } }));
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).toContain('acctNumber');
      expect((error as Error).message).not.toContain('12345');
    }
  });
});

describe('purchase fields (ISO 4217 numeric code and exponent)', () => {
  it.each([
    ['AED', '784', '2'],
    ['JPY', '392', '0'],
    ['BHD', '048', '3'],
    ['EUR', '978', '2'],
  ])('%s → %s, exponent %s', (code, number, exponent) => {
    expect(purchaseFields({ value: 1, currencyCode: code }, new Date(0))).toMatchObject({ purchaseCurrency: number, purchaseExponent: exponent });
  });

  it('an unknown currency is refused', () => {
    expect(() => purchaseFields({ value: 1, currencyCode: 'XXY' }, new Date(0))).toThrow(UnknownCurrencyError);
  });
});

describe('browser fields are fitted to the table', () => {
  it('a colour depth outside the list takes the closest lower value (30 → 24)', () => {
    expect([colorDepth(30), colorDepth(24), colorDepth(2), colorDepth(0), colorDepth(64)]).toEqual(['24', '24', '1', '1', '48']);
  });

  it('a language tag longer than 8 characters keeps the subtags that fit', () => {
    expect([fitLanguage('zh-Hant-TW'), fitLanguage('en-GB'), fitLanguage('verylonglanguage'), fitLanguage('')]).toEqual(['zh-Hant', 'en-GB', 'en', 'en']);
  });

  it('a user agent or accept header longer than 2048 characters is truncated; an invalid IP is left out', () => {
    const fields = browserFields({ ...BROWSER, userAgent: 'U'.repeat(3000), acceptHeader: 'A'.repeat(3000), ip: 'not-an-ip' });
    expect(fields.browserUserAgent).toHaveLength(2048);
    expect(fields.browserAcceptHeader).toHaveLength(2048);
    expect(fields).not.toHaveProperty('browserIP');
  });

  it('acceptLanguage lists the header’s tags without weights, or the browser language', () => {
    expect(acceptLanguages('fr-CH, fr;q=0.9, *;q=0.5', 'en')).toEqual(['fr-CH', 'fr']);
    expect(acceptLanguages(undefined, 'de-DE')).toEqual(['de-DE']);
  });
});

describe('the protocol version', () => {
  it.each([
    [{ acsStartProtocolVersion: '2.1.0', acsEndProtocolVersion: '2.3.1', dsStartProtocolVersion: '2.1.0', dsEndProtocolVersion: '2.3.1' }, '2.3.1'],
    [{ acsStartProtocolVersion: '2.1.0', acsEndProtocolVersion: '2.2.0', dsStartProtocolVersion: '2.1.0', dsEndProtocolVersion: '2.3.1' }, '2.2.0'],
    [{ acsStartProtocolVersion: '2.2.0', acsEndProtocolVersion: '2.3.1', dsStartProtocolVersion: '2.1.0', dsEndProtocolVersion: '2.2.0' }, '2.2.0'],
    [{ acsStartProtocolVersion: '2.1.0', acsEndProtocolVersion: '2.1.0' }, undefined],
  ])('%o → %s', (crd, version) => {
    expect(chooseMessageVersion(crd)).toBe(version);
  });
});

describe('onboarding threeDsRequestor', () => {
  const config = {
    requestorUrl: 'https://shop.example.com',
    merchantName: 'Demo Shop',
    merchantCountryCode: '784',
    mcc: '5411',
    brands: { visa: { requestorId: 'V-1', requestorName: 'Demo', acquirerBin: '438309', acquirerMerchantId: 'MID-1', acquirerCountryCode: '784' } },
  };

  it('resolves per brand, and a brand without requestor data cannot step up', () => {
    const parsed = threeDsRequestorSchema.parse(config);
    expect(requestorFor(parsed, 'VISA')).toMatchObject({
      threeDSRequestorID: 'V-1',
      acquirerBIN: '438309',
      mcc: '5411',
      threeDSRequestorURL: 'https://shop.example.com',
    });
    expect(requestorFor(parsed, 'MASTERCARD')).toBeUndefined();
  });

  it('refuses what no AReq could carry', () => {
    expect(threeDsRequestorSchema.safeParse({ ...config, requestorUrl: 'http://shop.example.com' }).success).toBe(false);
    expect(threeDsRequestorSchema.safeParse({ ...config, merchantCountryCode: '999' }).success).toBe(false);
    expect(threeDsRequestorSchema.safeParse({ ...config, mcc: '541' }).success).toBe(false);
    expect(threeDsRequestorSchema.safeParse({ ...config, brands: {} }).success).toBe(false);
  });
});

describe('an Erro that reaches a log', () => {
  it('is redacted of card numbers and cut short', () => {
    const summary = erroSummary({
      errorCode: '203',
      errorComponent: 'S',
      errorDescription: 'Format',
      errorDetail: `acctNumber ${TOKEN} invalid ${'x'.repeat(500)}`,
    });
    expect(summary.errorDetail).not.toContain(TOKEN);
    expect(summary.errorDetail.length).toBeLessThanOrEqual(240);
  });
});
