/**
 * The ECI that goes to the processor: the payment's own (from the network's checkout payload,
 * or from 3DS when the payment stepped up), never a constant. When the network gave none, the
 * brand's "not authenticated" value: Visa/Amex/Discover 07, Mastercard 00 — what an e-commerce
 * token payment without cardholder authentication is. Anything but two digits is refused
 * before a request is built.
 */
const UNAUTHENTICATED_ECI: Readonly<Record<string, string>> = { VISA: '07', MASTERCARD: '00', AMEX: '07', DISCOVER: '07' };

export function eciFor(brand: string, eci: string | undefined): string {
  if (eci !== undefined) {
    if (!/^\d{2}$/.test(eci)) throw new RangeError('an ECI is two digits');
    return eci;
  }
  return UNAUTHENTICATED_ECI[brand] ?? '07';
}
