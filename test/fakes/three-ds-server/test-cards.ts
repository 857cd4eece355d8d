/**
 * Luhn-valid account numbers (network-token-like) ending in a decision code of decisions.ts:
 * `testAccount('2070')` is a 2.2.0-only range with a 3DS Method and a challenge that passes.
 * The digit before the last four is chosen to make the Luhn check pass, so the code stays intact.
 */
export function testAccount(last4: string, prefix = '4895370000'): string {
  if (!/^\d{4}$/.test(last4) || !/^\d{6,14}$/.test(prefix)) throw new Error('testAccount: four digits and a numeric prefix');
  for (let d = 0; d <= 9; d++) {
    const candidate = `${prefix}${d}${last4}`;
    if (luhnValid(candidate)) return candidate;
  }
  throw new Error('unreachable: one check digit always fits');
}

export function luhnValid(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}
