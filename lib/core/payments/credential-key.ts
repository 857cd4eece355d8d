import { createHash } from 'node:crypto';
import type { PaymentCredential } from '../checkout/payment-data.js';

/**
 * What a payment's lease names as its credential (SPEC §3, "a takeover must present the
 * same credential"). Never the credential itself: a checkout response by its replay key
 * (already a hash), a 3DS completion by its transaction id, and Direct Wallet data by a
 * SHA-256 over the payment, the number, the expiry and the one-time cryptogram. The
 * cryptogram makes the hash useless for guessing a card number from its last four digits;
 * the value lives on the item only while the lease does (the final write removes it).
 */
export const checkoutCredentialKey = (checkoutKey: string): string => `checkout:${checkoutKey}`;

export const threeDsCredentialKey = (transactionId: string): string => `3ds:${transactionId}`;

/** 4.10 after the 3DS Method (`{threeDSCompInd}`): its own key, so the challenge that may follow is not taken for it. */
export const threeDsMethodCredentialKey = (transactionId: string): string => `3ds-method:${transactionId}`;

export function directWalletCredentialKey(paymentRef: string, credential: PaymentCredential): string {
  const material = JSON.stringify([paymentRef, credential.kind, credential.number, credential.expiryMonth, credential.expiryYear, credential.cryptogram]);
  return `direct:${createHash('sha256').update(material).digest('hex')}`;
}
