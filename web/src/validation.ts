import type { CardNetwork, ConsumerIdentity } from './sdk/types.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

export function validateEmail(value: string): { ok: true; identity: ConsumerIdentity } | { ok: false; message: string } {
  const email = value.trim();
  if (!email) return { ok: false, message: 'Enter your email address.' };
  if (email.length > 254 || !EMAIL.test(email)) return { ok: false, message: 'Enter an email address like name@example.com.' };
  return { ok: true, identity: { type: 'EMAIL', value: email.toLowerCase() } };
}

/** International format: + country code and number; spaces, dashes, dots and brackets allowed. */
export function validateMobile(value: string): { ok: true; identity: ConsumerIdentity } | { ok: false; message: string } {
  const raw = value.trim();
  if (!raw) return { ok: false, message: 'Enter your mobile number.' };
  const compact = raw.replace(/[\s().-]/g, '').replace(/^00/, '+');
  if (!compact.startsWith('+')) return { ok: false, message: 'Include your country code, for example +971 50 123 4567.' };
  if (!/^\+[1-9]\d{7,14}$/.test(compact)) return { ok: false, message: 'Enter a mobile number with 8 to 15 digits after the country code.' };
  const { countryCode, nationalNumber } = splitE164(compact);
  return { ok: true, identity: { type: 'MOBILE_NUMBER', value: compact, countryCode, nationalNumber } };
}

/**
 * Country calling codes are a prefix code (ITU-T E.164): 1 and 7 are one digit; these
 * two-digit codes exist; every other code has three digits.
 */
const TWO_DIGIT = new Set([
  20, 27, 30, 31, 32, 33, 34, 36, 39, 40, 41, 43, 44, 45, 46, 47, 48, 49, 51, 52, 53, 54, 55, 56, 57, 58, 60, 61, 62, 63, 64, 65, 66, 81, 82, 84, 86, 90, 91,
  92, 93, 94, 95, 98,
]);

export function splitE164(e164: string): { countryCode: string; nationalNumber: string } {
  const digits = e164.replace(/^\+/, '');
  const length = digits[0] === '1' || digits[0] === '7' ? 1 : TWO_DIGIT.has(Number(digits.slice(0, 2))) ? 2 : 3;
  return { countryCode: digits.slice(0, length), nationalNumber: digits.slice(length) };
}

export function luhn(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export function detectBrand(digits: string): CardNetwork | undefined {
  if (/^4/.test(digits)) return 'VISA';
  if (/^5[1-5]/.test(digits)) return 'MASTERCARD';
  const six = Number(digits.slice(0, 6).padEnd(6, '0'));
  if (digits.length >= 2 && /^2[2-7]/.test(digits) && six >= 222100 && six <= 272099) return 'MASTERCARD';
  if (/^3[47]/.test(digits)) return 'AMEX';
  if (/^6(011|5)/.test(digits)) return 'DISCOVER';
  return undefined;
}

export interface CardFormValues {
  number: string;
  expiry: string;
  cvc: string;
  name: string;
}

export type CardFormErrors = Partial<Record<keyof CardFormValues, string>>;

export interface ValidCard {
  pan: string;
  brand: CardNetwork;
  month: string;
  year: string;
  cvc: string;
  name: string;
}

export function validateCard(values: CardFormValues, acceptedBrands: string[], now = new Date()): { errors: CardFormErrors; card?: ValidCard } {
  const errors: CardFormErrors = {};
  const pan = values.number.replace(/\D/g, '');
  const brand = detectBrand(pan);
  if (!pan) errors.number = 'Enter your card number.';
  else if (pan.length < 13 || pan.length > 19 || !luhn(pan)) errors.number = 'Check your card number — it doesn’t look right.';
  else if (!brand || !acceptedBrands.includes(brand.toLowerCase())) errors.number = `This shop accepts ${acceptedList(acceptedBrands)} cards only.`;

  const match = /^\s*(\d{1,2})\s*\/?\s*(\d{2}|\d{4})\s*$/.exec(values.expiry);
  let month = '';
  let year = '';
  if (!values.expiry.trim()) errors.expiry = 'Enter the expiry date.';
  else if (!match) errors.expiry = 'Enter the expiry date as MM/YY.';
  else {
    const m = Number(match[1]);
    const y = match[2]!.length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
    month = String(m).padStart(2, '0');
    year = String(y);
    if (m < 1 || m > 12) errors.expiry = 'Enter a month from 01 to 12.';
    else if (y < now.getFullYear() || (y === now.getFullYear() && m < now.getMonth() + 1)) errors.expiry = 'This card has expired.';
    else if (y > now.getFullYear() + 20) errors.expiry = 'Check the expiry year.';
  }

  const cvcLength = brand === 'AMEX' ? 4 : 3;
  if (!values.cvc) errors.cvc = 'Enter the security code.';
  else if (!new RegExp(`^\\d{${cvcLength}}$`).test(values.cvc)) errors.cvc = `Enter the ${cvcLength}-digit security code.`;

  const name = values.name.trim().replace(/\s+/g, ' ');
  if (!name) errors.name = 'Enter the name on the card.';
  else if (name.length < 2 || name.length > 80 || /\d/.test(name)) errors.name = 'Enter the name as it appears on the card.';

  if (Object.keys(errors).length > 0 || !brand) return { errors };
  return { errors, card: { pan, brand, month, year, cvc: values.cvc, name } };
}

function acceptedList(brands: string[]): string {
  const names = brands.map((b) => (b === 'mastercard' ? 'Mastercard' : b === 'amex' ? 'American Express' : b.charAt(0).toUpperCase() + b.slice(1)));
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

export function validateOtpFormat(code: string): string | undefined {
  if (!code) return 'Enter the 6-digit code.';
  if (!/^\d{6}$/.test(code)) return 'The code has 6 digits.';
  return undefined;
}
