import { describe, expect, it } from 'vitest';
import type { MerchantConfig } from '../../lib/core/domain/merchant.js';
import { InvalidRedirectUrlError } from '../../lib/core/errors.js';
import { allowedRedirectUrl } from '../../lib/core/domain/redirect-url.js';

const merchant = { merchantRef: 'm', redirectOrigins: ['https://shop.example.com', 'http://localhost:8080'] } as unknown as MerchantConfig;
// What link creation calls (lib/core/links/payment-links.ts): the orders' own check.
const check = (url: string) => () => allowedRedirectUrl('returnUrl', url, merchant.redirectOrigins ?? []);

describe('a payment link’s returnUrl (the orders’ rule, lib/core/domain/redirect-url.ts: exact origin among redirectOrigins)', () => {
  it.each([
    'https://shop.example.com/thanks?x=1',
    'https://SHOP.example.com/upper-case-host',
    'https://shop.example.com:443/default-port',
    'https://shop.example.com./trailing-dot-is-the-same-host',
    'http://localhost:8080/back',
  ])('allows %s', (url) => {
    expect(check(url)).not.toThrow();
  });

  it.each([
    'https://shop.example.com.evil.example/',
    'https://shop.example.com@evil.example/',
    'https://user:pw@shop.example.com/',
    'https://evil.example/#https://shop.example.com',
    'https://shop.example.com\\@evil.example/',
    'https://shop.example.com:8443/other-port',
    'http://shop.example.com/plain-http',
    'http://localhost:9090/other-loopback-port',
    'javascript:alert(1)//https://shop.example.com',
    'data:text/html,hi',
    '//shop.example.com/scheme-relative',
    'not a url',
  ])('refuses %s with INVALID_REDIRECT_URL', (url) => {
    expect(check(url)).toThrow(InvalidRedirectUrlError);
  });

  it('stores the URL as the browser will navigate to it', () => {
    expect(check('https://SHOP.example.com:443/a b'.replace(' ', '%20'))()).toBe('https://shop.example.com/a%20b');
  });

  it('refuses everything for a merchant without redirectOrigins', () => {
    expect(() => allowedRedirectUrl('returnUrl', 'https://shop.example.com/', [])).toThrow(InvalidRedirectUrlError);
  });
});
