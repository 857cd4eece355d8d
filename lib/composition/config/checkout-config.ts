import * as z from 'zod';
import { namedUrlList, parseEnv, positiveInt, urlString } from './parse-env.js';

/**
 * What verifying a checkout needs (4.3, 4.4, 4.10: lib/composition/payments.ts): the card
 * networks' signing keys (NETWORK_JWKS_URLS, `name=url,…`) and how old a checkout response may
 * be. A module of its own: the lifecycle and processor functions never verify one, so they
 * neither parse nor require these (docs/benchmarks.md "Cold start").
 */
const schema = z.object({
  NETWORK_JWKS_URLS: namedUrlList(urlString),
  CHECKOUT_MAX_AGE_SECONDS: positiveInt(900),
});

export type CheckoutConfig = z.output<typeof schema>;
export const checkoutConfig: CheckoutConfig = parseEnv(schema);
