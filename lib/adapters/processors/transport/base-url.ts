import * as z from 'zod';

/**
 * A processor's base URL: https — or http to a loopback host, which only the fakes are (tests
 * and `npm start`). Validated when the adapter is configured, so a mistyped URL fails at start.
 */
export const processorBaseUrl = z.url().refine((value) => {
  const url = new URL(value);
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
}, 'a processor URL is https (http only to a loopback fake)');

/** The idempotency key of one operation: its kind and our reference (≤ 64 characters for Adyen). */
export function operationKey(kind: 'AUTHORIZE' | 'CAPTURE' | 'REVERSAL' | 'REFUND', reference: string): string {
  const key = `${kind.toLowerCase()}:${reference}`;
  if (key.length > 64 || !/^[\x21-\x7e]+$/.test(key))
    throw new RangeError('an operation reference makes an idempotency key of at most 64 printable characters');
  return key;
}
