import { describe, expect, it } from 'vitest';
import { parsePaymentData } from '../../lib/core/checkout/payment-data.js';
import { checkoutJwsPayloadSchema } from '../../lib/core/checkout/jws.js';
import { CheckoutPayloadInvalidError } from '../../lib/core/errors.js';
import { eciMeaning, needsStepUp } from '../../lib/core/payments/three-ds-policy.js';

/**
 * Issue 10 item 2: the scheme-aware rules on the decrypted payload (a token needs a
 * cryptogram; the dynamic data types of SPEC §4.3 step 6) and on the ECI (its meaning per
 * brand, Mastercard's 06 included) in the 3DS decision.
 */
const TOKEN = { paymentToken: '4895370012003478', tokenExpirationMonth: '12', tokenExpirationYear: '2029' };
const PAN = { primaryAccountNumber: '5555555555554444', panExpirationMonth: '09', panExpirationYear: '2031' };
const invalid = (data: unknown) => expect(() => parsePaymentData(data)).toThrow(CheckoutPayloadInvalidError);

describe('dynamic data rules', () => {
  it.each(['CARD_APPLICATION_CRYPTOGRAM_LONG_FORM', 'CARD_APPLICATION_CRYPTOGRAM_SHORT_FORM', 'TAVV', 'DTVV'])(
    'a token with a %s entry is accepted and its type kept',
    (type) => {
      expect(parsePaymentData({ token: TOKEN, dynamicData: [{ dynamicDataValue: 'AAA=', dynamicDataType: type }] })).toMatchObject({
        kind: 'token',
        cryptogram: 'AAA=',
        cryptogramType: type,
      });
    },
  );

  it('a token with type NONE, no dynamicData, or only a dynamic CVC has no cryptogram: 422', () => {
    invalid({ token: TOKEN, dynamicData: [{ dynamicDataType: 'NONE' }] });
    invalid({ token: TOKEN, dynamicData: { dynamicDataType: 'NONE', dynamicDataValue: 'AAA=' } }); // NONE carries nothing
    invalid({ token: TOKEN });
    invalid({ token: TOKEN, dynamicData: [{ dynamicDataValue: '123', dynamicDataType: 'DYNAMIC_CARD_SECURITY_CODE' }] });
  });

  it('a token next to NONE and a cryptogram takes the cryptogram', () => {
    const data = { token: TOKEN, dynamicData: [{ dynamicDataType: 'NONE' }, { dynamicDataValue: 'BBB=', dynamicDataType: 'TAVV' }] };
    expect(parsePaymentData(data)).toMatchObject({ cryptogram: 'BBB=', cryptogramType: 'TAVV' });
  });

  it('a PAN takes its dynamic card security code, and a cryptogram before it when both come', () => {
    expect(parsePaymentData({ card: PAN, dynamicData: [{ dynamicDataValue: '123', dynamicDataType: 'DYNAMIC_CARD_SECURITY_CODE' }] })).toMatchObject({
      kind: 'card',
      cryptogramType: 'DYNAMIC_CARD_SECURITY_CODE',
    });
    const both = [
      { dynamicDataValue: '123', dynamicDataType: 'DYNAMIC_CARD_SECURITY_CODE' },
      { dynamicDataValue: 'CCC=', dynamicDataType: 'CARD_APPLICATION_CRYPTOGRAM_SHORT_FORM' },
    ];
    expect(parsePaymentData({ card: PAN, dynamicData: both })).toMatchObject({ cryptogram: 'CCC=' });
    invalid({ card: PAN, dynamicData: [{ dynamicDataType: 'NONE' }] });
  });

  it('an unknown dynamicDataType is refused', () => {
    invalid({ token: TOKEN, dynamicData: [{ dynamicDataValue: 'AAA=', dynamicDataType: 'UCAF' }] });
  });

  it('the PAR is optional (Visa may omit it)', () => {
    const credential = parsePaymentData({ token: TOKEN, dynamicData: [{ dynamicDataValue: 'AAA=', dynamicDataType: 'TAVV' }] });
    expect(credential.paymentAccountReference).toBeUndefined();
  });
});

describe('assuranceData in both shapes', () => {
  const jwsPayload = (assuranceData: unknown) => ({ srcCorrelationId: 'c', encryptedPayload: 'x', assuranceData });

  it('accepts the 3DS verificationData shape and the cardVerification shape', () => {
    const threeDs = { eci: '05', verificationData: [{ methodResults: { transStatus: 'Y', dsTransId: 'd', acsTransId: 'a' } }] };
    const card = { eci: '02', cardVerificationResults: '01', cardVerificationMethod: '02', cardVerificationEntity: '01' };
    expect(checkoutJwsPayloadSchema.parse(jwsPayload(threeDs)).assuranceData).toEqual(threeDs);
    expect(checkoutJwsPayloadSchema.parse(jwsPayload(card)).assuranceData).toEqual(card);
  });

  it('refuses malformed fields of either shape', () => {
    for (const bad of [
      { verificationData: { methodResults: {} } },
      { verificationData: [{ methodResults: { transStatus: { y: 1 } } }] },
      { cardVerificationResults: ['01'] },
      { cardVerificationEntity: 'x'.repeat(129) },
    ]) {
      expect(checkoutJwsPayloadSchema.safeParse(jwsPayload(bad)).success).toBe(false);
    }
  });
});

describe('ECI meaning per brand and the 3DS decision (SPEC §4.3 step 8)', () => {
  it.each([
    ['VISA', '05', 'authenticated'],
    ['VISA', '06', 'attempted'],
    ['VISA', '07', 'not-authenticated'],
    ['MASTERCARD', '02', 'authenticated'],
    ['MASTERCARD', '01', 'attempted'],
    ['MASTERCARD', '00', 'not-authenticated'],
    ['MASTERCARD', '06', 'not-authenticated'], // SRC payload fetched > 5 min after authentication
    ['VISA', '02', undefined],
    ['MASTERCARD', '05', undefined],
    ['UNKNOWN', '06', undefined],
  ] as const)('%s %s → %s', (brand, eci, meaning) => {
    expect(eciMeaning(brand, eci)).toBe(meaning);
  });

  it('risk-based steps up when not authenticated, missing or not an ECI of the brand', () => {
    expect(needsStepUp('risk-based', '06', 'VISA')).toBe(false);
    expect(needsStepUp('risk-based', '06', 'MASTERCARD')).toBe(true);
    expect(needsStepUp('risk-based', '01', 'MASTERCARD')).toBe(false);
    expect(needsStepUp('risk-based', '07', 'VISA')).toBe(true);
    expect(needsStepUp('risk-based', '00', 'MASTERCARD')).toBe(true);
    expect(needsStepUp('risk-based', undefined, 'VISA')).toBe(true);
    expect(needsStepUp('risk-based', '02', 'VISA')).toBe(true);
  });

  it('always steps up unless fully authenticated for the brand; never never does', () => {
    expect(needsStepUp('always', '05', 'VISA')).toBe(false);
    expect(needsStepUp('always', '02', 'MASTERCARD')).toBe(false);
    expect(needsStepUp('always', '05', 'MASTERCARD')).toBe(true);
    expect(needsStepUp('always', '06', 'VISA')).toBe(true);
    expect(needsStepUp('never', undefined, 'MASTERCARD')).toBe(false);
  });
});
