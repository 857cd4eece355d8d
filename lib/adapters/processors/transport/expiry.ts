/** A credential's expiry as processors want it: month 1–12 and a four-digit year. */
export function expiryOf(credential: { expiryMonth: string; expiryYear: string }): { month: number; year: number } {
  const month = Number(credential.expiryMonth);
  const year = credential.expiryYear.length === 2 ? 2000 + Number(credential.expiryYear) : Number(credential.expiryYear);
  if (!Number.isInteger(month) || month < 1 || month > 12 || !Number.isInteger(year) || year < 2000 || year > 2099)
    throw new RangeError('an expiry is a month 1–12 and a year 2000–2099');
  return { month, year };
}
