import { maskedView, type PaymentCredential } from '../checkout/payment-data.js';
import type { MaskedPaymentMethod, PaymentMethodType } from '../domain/payment.js';

const FOUR_DIGITS = /^\d{4}$/;
const text = (value: unknown): string | undefined => (typeof value === 'string' || typeof value === 'number' ? String(value) : undefined);

/**
 * The only card facts that are stored (SPEC §3): brand, last four digits, expiry, PAR, and the
 * type of the cryptogram (its value never).
 * For a network token the PAN's last four come from the SRC's masked card, if it sent them.
 */
export function maskPaymentMethod(
  type: PaymentMethodType,
  brand: string,
  credential: PaymentCredential,
  maskedCard?: Record<string, unknown>,
): MaskedPaymentMethod {
  const { lastFour, expiry } = maskedView(credential);
  const panLastFour = credential.kind === 'card' ? lastFour : text(maskedCard?.panLastFour);
  const par = credential.paymentAccountReference ?? text(maskedCard?.paymentAccountReference);
  return {
    type,
    brand,
    ...(credential.kind === 'token' ? { tokenLastFour: lastFour } : {}),
    ...(panLastFour && FOUR_DIGITS.test(panLastFour) ? { panLastFour } : {}),
    expiry,
    ...(par && /^[A-Za-z0-9]{1,64}$/.test(par) ? { paymentAccountReference: par } : {}),
    ...(credential.cryptogramType ? { cryptogramType: credential.cryptogramType } : {}),
  };
}
