import currencyCodes from 'currency-codes';

/**
 * The AReq's purchase fields: purchaseAmount in minor units without punctuation (^\d{0,48}$),
 * purchaseCurrency the ISO 4217 numeric code, purchaseExponent its minor-unit digits (^\d$),
 * purchaseDate UTC as yyyymmddhhmmss (areq_220/areq_231). ISO 4217 numbers and exponents come
 * from the currency-codes package (the ISO 4217 list, published 2024-06-25).
 */
export interface PurchaseFields {
  purchaseAmount: string;
  purchaseCurrency: string;
  purchaseExponent: string;
  purchaseDate: string;
}

export class UnknownCurrencyError extends Error {
  override readonly name: string = 'UnknownCurrencyError';
}

export function purchaseFields(amount: { value: number; currencyCode: string }, purchaseDate: Date): PurchaseFields {
  const currency = currencyCodes.code(amount.currencyCode);
  if (!currency || !/^\d{3}$/.test(currency.number) || !Number.isInteger(currency.digits))
    throw new UnknownCurrencyError(`no ISO 4217 numeric code for ${amount.currencyCode}`);
  if (!Number.isSafeInteger(amount.value) || amount.value < 0) throw new RangeError('the amount is not a whole number of minor units');
  return {
    purchaseAmount: String(amount.value),
    purchaseCurrency: currency.number,
    purchaseExponent: String(currency.digits),
    purchaseDate: utcStamp(purchaseDate),
  };
}

/** yyyymmddhhmmss in UTC. */
export function utcStamp(date: Date): string {
  return date.toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

/** cardExpiryDate (yymm) of a token's or card's expiry. */
export function expiryYymm(expiryYear: string, expiryMonth: string): string {
  return `${expiryYear.slice(-2)}${expiryMonth.padStart(2, '0')}`;
}
