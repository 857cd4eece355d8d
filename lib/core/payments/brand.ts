/** Scheme from the leading digits of a PAN or network token (both follow the BIN ranges). */
export function brandOf(number: string): string {
  if (/^4/.test(number)) return 'VISA';
  const two = Number(number.slice(0, 2));
  const four = Number(number.slice(0, 4));
  if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return 'MASTERCARD';
  if (two === 34 || two === 37) return 'AMEX';
  if (/^(6011|65|64[4-9])/.test(number)) return 'DISCOVER';
  return 'UNKNOWN';
}
