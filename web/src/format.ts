import type { Amount } from './api.js';

/** "en_AE" → "en-AE"; anything Intl cannot use → the browser's language. */
export function toBcp47(locale: string | undefined): string {
  const candidate = (locale ?? '').replace(/_/g, '-');
  try {
    return Intl.getCanonicalLocales(candidate)[0] ?? navigator.language ?? 'en';
  } catch {
    return navigator.language || 'en';
  }
}

export function currencyDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** Minor units → major units by the currency's digits (AED 14900 → 149, JPY 500 → 500). */
export function toMajor(amount: Amount): number {
  return amount.value / 10 ** currencyDigits(amount.currencyCode);
}

export function formatAmount(amount: Amount, locale: string): string {
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency: amount.currencyCode }).format(toMajor(amount));
  } catch {
    return `${amount.currencyCode} ${toMajor(amount).toFixed(currencyDigits(amount.currencyCode))}`;
  }
}

export function formatExpiry(month: string, year: string): string {
  const mm = month.padStart(2, '0').slice(-2);
  const yy = year.slice(-2);
  return mm && yy ? `${mm}/${yy}` : '';
}

export function brandName(brand: string | undefined): string {
  switch ((brand ?? '').toUpperCase()) {
    case 'MASTERCARD':
      return 'Mastercard';
    case 'AMEX':
      return 'American Express';
    case 'DISCOVER':
      return 'Discover';
    case 'VISA':
      return 'Visa';
    default:
      return 'Card';
  }
}

/** "4111 1111 1111 1111" while typing; digits only, max 19. */
export function groupCardNumber(digits: string): string {
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}
