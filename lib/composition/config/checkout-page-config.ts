import * as z from 'zod';
import { blankAsUnset, commaList, namedUrlList, parseEnv, webUrl } from './parse-env.js';

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
const sdkUrlList = blankAsUnset(
  namedUrlList(sdkUrl).transform((list) => Object.fromEntries(list.map(({ name, url }) => [name, url])) as Record<string, string>),
);

/**
 * THREE_DS_ACS_ORIGINS: the issuers' ACS origins the page may frame and form-POST a creq to
 * (EMV 3DS browser challenge), e.g. `https://acs.bank.example`; or `https:` alone, any https
 * origin, which is what a production 3DS server needs (docs/integrating/three-ds.md).
 */
const acsOrigin = z.union([
  z.literal('https:'),
  webUrl
    .refine((value) => URL.canParse(value) && new URL(value).origin === value.replace(/\/$/, ''), 'must be an origin (scheme://host[:port])')
    .transform((value) => new URL(value).origin),
]);
const acsOriginList = blankAsUnset(commaList.pipe(z.array(acsOrigin).min(1)));

/**
 * Settings of the hosted checkout page (GET /checkout). THREE_DS_SERVER_URL only says that a
 * production 3DS Server is configured (the page never calls it): then, unless
 * THREE_DS_ACS_ORIGINS names them, the page frames and form-POSTs to any https origin — the
 * issuers' ACSs and 3DS Method URLs are known only per payment (docs/integrating/three-ds.md, "CSP").
 */
const schema = z.object({
  CLICK_TO_PAY_SDK_URLS: sdkUrlList,
  THREE_DS_ACS_ORIGINS: acsOriginList,
  THREE_DS_SERVER_URL: blankAsUnset(webUrl),
});

export type CheckoutPageConfig = z.output<typeof schema>;
export const checkoutPageConfig: CheckoutPageConfig = parseEnv(schema);
