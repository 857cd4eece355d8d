import { needsStepUp } from '../../lib/core/payments/three-ds-policy.js';
import { randomBytes } from 'node:crypto';
import { generateKeyPair } from 'jose';
import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { decryptCheckoutJwe } from '../../lib/core/checkout/jwe.js';
import { verifyCheckoutJws } from '../../lib/core/checkout/jws.js';
import { localUnwrapper } from '../support/local-unwrapper.js';
import {
  maskedView,
  parseDecryptedPayload,
  parsePaymentData,
  paymentDataSchema,
  resolveEci,
  type PaymentCredential,
} from '../../lib/core/checkout/payment-data.js';
import { parseCheckoutRequest } from '../../lib/core/checkout/sdk-result.js';
import { CheckoutPayloadInvalidError } from '../../lib/core/errors.js';
import { allErrorText, failure, flipSegment, MAX_AGE, networkResolver, now, recipientUnwrapper, signJws, vectors } from './checkout-fixtures.js';

const [visa] = vectors.cases;
const base = visa!.decryptedPayload;
const TOKEN = '4895370012003478';
const encode = (value: string) => new TextEncoder().encode(value);
const payloadInvalid = (run: () => unknown) => {
  expect(run).toThrow(CheckoutPayloadInvalidError);
};

describe('parseDecryptedPayload', () => {
  it('rejects empty, non-UTF-8, non-JSON and non-object plaintext', () => {
    const plaintexts = [new Uint8Array(0), new Uint8Array([0xff, 0xfe]), encode('not json'), encode('[1]'), encode('null')];
    for (const plaintext of plaintexts) payloadInvalid(() => parseDecryptedPayload(plaintext));
  });

  it('rejects a payload without dynamicData, or with none in it, as having no cryptogram', () => {
    const { dynamicData: _omitted, ...noDynamicData } = base;
    for (const data of [noDynamicData, { ...base, dynamicData: [] }]) {
      expect(() => parseDecryptedPayload(encode(JSON.stringify(data)))).toThrow('The payment data has no cryptogram.');
    }
  });

  it('rejects dynamicData whose entry has no (or an empty) dynamicDataValue', () => {
    const typeOnly = { dynamicDataType: 'CARD_APPLICATION_CRYPTOGRAM_LONG_FORM' };
    payloadInvalid(() => parsePaymentData({ ...base, dynamicData: [typeOnly] }));
    payloadInvalid(() => parsePaymentData({ ...base, dynamicData: { dynamicDataValue: '' } }));
  });

  it('rejects neither token nor card, and both', () => {
    const { token, ...neither } = base;
    payloadInvalid(() => parsePaymentData(neither));
    const card = { primaryAccountNumber: '4111111111111111', panExpirationMonth: '12', panExpirationYear: '2029' };
    payloadInvalid(() => parsePaymentData({ ...neither, token, card }));
  });

  it('rejects a card number that fails the Luhn check, accepts one that passes', () => {
    const { token: _t, ...rest } = base;
    const card = (primaryAccountNumber: string) => ({
      ...rest,
      card: { primaryAccountNumber, panExpirationMonth: 7, panExpirationYear: 29 },
    });
    payloadInvalid(() => parsePaymentData(card('4111111111111112')));
    expect(parsePaymentData(card('4111111111111111'))).toMatchObject({
      kind: 'card',
      number: '4111111111111111',
      expiryMonth: '07',
      expiryYear: '2029',
    });
  });

  it('rejects malformed token numbers and expiry values', () => {
    const token = (patch: Record<string, unknown>) => ({ ...base, token: { ...base.token, ...patch } });
    for (const patch of [
      { paymentToken: '123' },
      { paymentToken: 4895370012003478 },
      { paymentToken: '4895-3700-1200-3478' },
      { tokenExpirationMonth: '13' },
      { tokenExpirationMonth: 0 },
      { tokenExpirationYear: '202' },
      { tokenExpirationYear: 123 },
      { tokenExpirationMonth: -1 },
    ]) {
      payloadInvalid(() => parsePaymentData(token(patch)));
    }
  });

  it('accepts a single dynamicData object and prefers the cryptogram among several entries', () => {
    const single = parsePaymentData({ ...base, dynamicData: { dynamicDataValue: 'AAA=', dynamicDataType: 'TAVV' } });
    expect(single).toMatchObject({ cryptogram: 'AAA=', cryptogramType: 'TAVV' });
    const several = parsePaymentData({
      ...base,
      dynamicData: [
        { dynamicDataValue: '123', dynamicDataType: 'DYNAMIC_CARD_SECURITY_CODE' },
        { dynamicDataValue: 'BBB=', dynamicDataType: 'CARD_APPLICATION_CRYPTOGRAM_SHORT_FORM', eci: '06' },
      ],
    });
    expect(several).toMatchObject({ cryptogram: 'BBB=', eci: '06' });
  });

  it('lets the Direct Wallet endpoint extend the schema', () => {
    const direct = paymentDataSchema.extend({ brand: z.enum(['VISA', 'MASTERCARD']).optional() });
    const body = direct.parse({ ...base, brand: 'VISA' });
    expect(parsePaymentData(body)).toMatchObject({ kind: 'token', number: TOKEN });
  });
});

describe('resolveEci and maskedView', () => {
  const credential: PaymentCredential = {
    kind: 'token',
    number: TOKEN,
    expiryMonth: '12',
    expiryYear: '2029',
    cryptogram: 'x',
  };

  it('takes the payment data ECI or assuranceData.eci, and validates two digits', () => {
    expect(resolveEci({ ...credential, eci: '05' }, '05', 'VISA')).toBe('05');
    expect(resolveEci({ ...credential, eci: '06' }, undefined, 'VISA')).toBe('06');
    expect(resolveEci(credential, '07', 'VISA')).toBe('07');
    expect(resolveEci(credential, undefined, 'VISA')).toBeUndefined();
    payloadInvalid(() => resolveEci(credential, '7', 'VISA'));
    payloadInvalid(() => resolveEci({ ...credential, eci: '05' }, '7', 'VISA'));
    payloadInvalid(() => parsePaymentData({ ...base, eci: '5' }));
  });

  it('when the two disagree, the one that proves less for the brand (a favourable one never skips the step-up)', () => {
    expect(resolveEci({ ...credential, eci: '05' }, '07', 'VISA')).toBe('07');
    expect(resolveEci({ ...credential, eci: '07' }, '05', 'VISA')).toBe('07');
    expect(resolveEci({ ...credential, eci: '05' }, '06', 'VISA')).toBe('06'); // attempted < authenticated
    // Mastercard's 06 (payload fetched after the five-minute window) in assuranceData only.
    expect(resolveEci({ ...credential, eci: '02' }, '06', 'MASTERCARD')).toBe('06');
    expect(needsStepUp('risk-based', resolveEci({ ...credential, eci: '02' }, '06', 'MASTERCARD'), 'MASTERCARD')).toBe(true);
    // A Visa ECI on a Mastercard card means nothing there: it is the weakest.
    expect(resolveEci({ ...credential, eci: '02' }, '05', 'MASTERCARD')).toBe('05');
    expect(needsStepUp('risk-based', '05', 'MASTERCARD')).toBe(true);
  });

  it('keeps only the last four digits and the expiry', () => {
    expect(maskedView(credential)).toEqual({ lastFour: '3478', expiry: '2029-12' });
  });
});

describe('no failure leaks card data or key material', () => {
  const secrets = [TOKEN, ...vectors.cases.map((c) => c.decryptedPayload.dynamicData[0]!.dynamicDataValue), 'BEGIN', '-----'];

  it('in detail, field issues or cause chain of every failure', async () => {
    const cryptogram = base.dynamicData[0]!.dynamicDataValue;
    const attacker = await generateKeyPair('RS256');
    const jws = visa!.sdkResult.checkoutResponse;
    const jwe = visa!.jwsPayload.encryptedPayload;
    const runs: (() => unknown)[] = [
      // request and signature
      () => parseCheckoutRequest({ checkoutResponse: { actionCode: 'CANCEL' } }),
      () => parseCheckoutRequest({ checkoutResponse: { actionCode: TOKEN, checkoutResponse: cryptogram } }),
      () => parseCheckoutRequest({ checkoutResponse: { actionCode: 'SUCCESS', checkoutResponse: 'x'.repeat(4e4) }, [TOKEN]: 1 }),
      () => verifyCheckoutJws(flipSegment(jws, 1), networkResolver, { maxAgeSeconds: MAX_AGE, now }),
      () => verifyCheckoutJws(flipSegment(jws, 2), networkResolver, { maxAgeSeconds: MAX_AGE, now }),
      () => verifyCheckoutJws(jws, networkResolver, { maxAgeSeconds: MAX_AGE, now: () => Date.UTC(2030, 0) }),
      async () => {
        const header = { alg: 'RS256', kid: 'sandbox-network-rsa-2026', iat: vectors.iat };
        const forged = await signJws(header, { srcCorrelationId: TOKEN }, attacker.privateKey);
        return verifyCheckoutJws(forged, networkResolver, { maxAgeSeconds: MAX_AGE, now });
      },
      // decryption
      ...[0, 1, 2, 3, 4].map((i) => () => decryptCheckoutJwe(flipSegment(jwe, i), recipientUnwrapper)),
      () => decryptCheckoutJwe(jwe, localUnwrapper(new Map())),
      () => decryptCheckoutJwe(jwe, { unwrap: async () => randomBytes(24) }),
      // payment data, with the real token and cryptogram in wrong places
      () => parsePaymentData({ ...base, token: { ...base.token, tokenExpirationMonth: TOKEN } }),
      () => parsePaymentData({ ...base, token: { ...base.token, paymentToken: `${TOKEN}00000` } }),
      () => parsePaymentData({ ...base, eci: cryptogram, paymentAccountReference: TOKEN.repeat(5) }),
      () => parsePaymentData({ ...base, card: { primaryAccountNumber: TOKEN, panExpirationMonth: '1', panExpirationYear: 29 } }),
      () => parsePaymentData({ card: { primaryAccountNumber: `${TOKEN.slice(0, -1)}9`, panExpirationMonth: 1, panExpirationYear: 29 } }),
      () => parseDecryptedPayload(encode(`{"token":{"paymentToken":"${TOKEN}"`)),
      () => resolveEci({ kind: 'token', number: TOKEN, expiryMonth: '12', expiryYear: '2029', cryptogram }, cryptogram, 'VISA'),
    ];
    for (const run of runs) {
      const text = allErrorText(await failure(run));
      for (const secret of [...secrets, '4895370012003479']) expect(text).not.toContain(secret);
    }
  });
});
