import { describe, expect, it } from 'vitest';
import { formatAmount, toMajor } from '../../web/src/format.js';
import { detectBrand, luhn, splitE164, validateCard, validateEmail, validateMobile } from '../../web/src/validation.js';

describe('hosted page input checks (web/src/validation.ts, format.ts)', () => {
  it('Luhn and brand detection', () => {
    expect(luhn('4111111111111111')).toBe(true);
    expect(luhn('4111111111111112')).toBe(false);
    expect(luhn('5555555555554444')).toBe(true);
    expect(detectBrand('4111111111111111')).toBe('VISA');
    expect(detectBrand('5555555555554444')).toBe('MASTERCARD');
    expect(detectBrand('2221000000000009')).toBe('MASTERCARD');
    expect(detectBrand('9999')).toBeUndefined();
  });

  it('card form: accepted brands only, expiry in the future, 3-digit code, a name', () => {
    const now = new Date('2026-11-22T00:00:00Z');
    const ok = validateCard({ number: '4111 1111 1111 1111', expiry: '12/30', cvc: '123', name: ' Nora  Example ' }, ['visa'], now);
    expect(ok.card).toEqual({ pan: '4111111111111111', brand: 'VISA', month: '12', year: '2030', cvc: '123', name: 'Nora Example' });
    const bad = validateCard({ number: '5555555555554444', expiry: '10/26', cvc: '12', name: '' }, ['visa'], now);
    expect(bad.card).toBeUndefined();
    expect(Object.keys(bad.errors).sort()).toEqual(['cvc', 'expiry', 'name', 'number']);
    expect(bad.errors.number).toContain('Visa');
  });

  it('identities: email, and mobile numbers in international format', () => {
    expect(validateEmail('Returning@Example.com ')).toEqual({ ok: true, identity: { type: 'EMAIL', value: 'returning@example.com' } });
    expect(validateEmail('name@example').ok).toBe(false);
    expect(validateMobile('+971 50 000 0001')).toEqual({
      ok: true,
      identity: { type: 'MOBILE_NUMBER', value: '+971500000001', countryCode: '971', nationalNumber: '500000001' },
    });
    expect(validateMobile('0500000001').ok).toBe(false);
    expect(splitE164('+14155550123')).toEqual({ countryCode: '1', nationalNumber: '4155550123' });
    expect(splitE164('+447700900123')).toEqual({ countryCode: '44', nationalNumber: '7700900123' });
  });

  it('amounts: minor units by the currency’s digits, formatted with Intl', () => {
    expect(toMajor({ currencyCode: 'AED', value: 14900 })).toBe(149);
    expect(toMajor({ currencyCode: 'JPY', value: 500 })).toBe(500);
    expect(toMajor({ currencyCode: 'BHD', value: 1234 })).toBe(1.234);
    expect(formatAmount({ currencyCode: 'AED', value: 14900 }, 'en-AE').replace(/\s/g, ' ')).toBe('AED 149.00');
    expect(formatAmount({ currencyCode: 'JPY', value: 500 }, 'en-US')).toBe('¥500');
  });
});
