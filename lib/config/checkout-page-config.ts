import { z } from 'zod';
import { commaList, parseEnv } from './parse-env.js';

/**
 * A network SDK script the hosted page may load: https, or http on a loopback host (a fake
 * SDK in local tests). Anything else would let a plain-http script run with the page's rights.
 */
const sdkUrl = z
  .string()
  .refine((value) => URL.canParse(value), 'must be a URL')
  .refine((value) => {
    const url = new URL(value);
    return url.protocol === 'https:' || (url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname));
  }, 'must be an https: URL (http: only for localhost)');

/** `visa=https://…,mastercard=https://…` → { visa: 'https://…', mastercard: 'https://…' }. */
const sdkUrlList = z.preprocess(
  (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
  commaList
    .pipe(
      z.array(
        z
          .string()
          .regex(/^[a-z][a-z0-9-]{0,31}=.+$/, 'expected name=url')
          .transform((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)] as const)
          .pipe(z.tuple([z.string(), sdkUrl])),
      ),
    )
    .refine((list) => new Set(list.map(([name]) => name)).size === list.length, 'duplicate network name')
    .transform((list) => Object.fromEntries(list) as Record<string, string>)
    .optional(),
);

/** Settings of the hosted checkout page (GET /checkout). */
const schema = z.object({
  CLICK_TO_PAY_SDK_URLS: sdkUrlList,
});

export type CheckoutPageConfig = z.output<typeof schema>;
export const checkoutPageConfig: CheckoutPageConfig = parseEnv(schema);
