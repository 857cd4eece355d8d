import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * HMAC of one standard-notification item (NotificationRequestItem), as Adyen signs it: HMAC-SHA256
 * over the eight fields joined by ':' —
 *   pspReference:originalReference:merchantAccountCode:merchantReference:value:currency:eventCode:success
 * — an absent originalReference as the empty string, the key the hex string shown in the
 * Customer Area decoded to bytes, the signature base64 in additionalData.hmacSignature.
 * Source: Adyen's "Verify HMAC signatures" (docs.adyen.com/development-resources/webhooks/
 * verify-hmac-signatures) and its Node library's HmacValidator (Adyen/adyen-node-api-library,
 * src/utils/hmacValidator.ts at 3b84a188ef071064636a19f53f95f8aa7112dd91: getDataToSign and
 * calculateHmacSignature). Written here, not imported: the library loads far more than this.
 */
export interface SignedFields {
  pspReference: string;
  originalReference?: string | undefined;
  merchantAccountCode: string;
  merchantReference: string;
  amount: { value: number; currency: string };
  eventCode: string;
  /** "true" or "false", as sent. */
  success: string;
}

export function signingString(item: SignedFields): string {
  return [
    item.pspReference,
    item.originalReference ?? '',
    item.merchantAccountCode,
    item.merchantReference,
    String(item.amount.value),
    item.amount.currency,
    item.eventCode,
    item.success,
  ].join(':');
}

/** The key as configured (hex); anything else is a configuration error, found at start-up. */
export function hmacKeyBytes(hexKey: string): Buffer {
  if (!/^(?:[0-9a-fA-F]{2})+$/.test(hexKey)) throw new RangeError('an Adyen HMAC key is an even-length hex string');
  return Buffer.from(hexKey, 'hex');
}

export function signItem(item: SignedFields, key: Buffer): string {
  return createHmac('sha256', key).update(signingString(item), 'utf8').digest('base64');
}

/** Constant-time comparison of the decoded signatures; a signature of another length fails. */
export function signatureMatches(item: SignedFields, signature: string | undefined, key: Buffer): boolean {
  if (!signature) return false;
  const expected = Buffer.from(signItem(item, key), 'base64');
  const given = Buffer.from(signature, 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
