/**
 * SPEC 4.7/4.8: which return and cancel URLs the hosted payment page may send a shopper to
 * (lib/core/domain/redirect-url.ts). Examples for the known tricks, then properties: whatever string
 * is accepted, the origin a browser would navigate to is one the merchant listed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allowedRedirectUrl, isLoopbackHost, normaliseOrigin, redirectUrlProblem } from '../../lib/core/domain/redirect-url.js';
import { InvalidRedirectUrlError } from '../../lib/core/errors.js';
import { statusOf } from '../../lib/http/error-status.js';

const SHOP = 'https://shop.example.com';
const allowed = [SHOP, 'http://localhost:5173', 'http://127.0.0.1:8080', 'https://xn--shp-tna.example.com'];

describe('redirectUrlProblem: examples', () => {
  it.each([
    ['the origin itself', SHOP],
    ['a path, query and encoded characters', `${SHOP}/orders/done?x=1&y=%20z`],
    ['upper-case scheme and host', 'HTTPS://SHOP.Example.COM/back'],
    ['the default port written out', 'https://shop.example.com:443/back'],
    ['a trailing dot on the host', 'https://shop.example.com./back'],
    ['http on localhost with its port', 'http://localhost:5173/return'],
    ['http on 127.0.0.1', 'http://127.0.0.1:8080/'],
    ['an IDN host, written in Unicode', 'https://shöp.example.com/'],
    ['an IDN host, written in punycode', 'https://xn--shp-tna.example.com/'],
  ])('allows %s', (_name, url) => {
    expect(redirectUrlProblem(url, allowed)).toBeUndefined();
  });

  it.each([
    ['another origin whose name starts with the shop’s', 'https://shop.example.com.evil.example/', 'ORIGIN_NOT_ALLOWED'],
    ['a parent domain', 'https://example.com/', 'ORIGIN_NOT_ALLOWED'],
    ['a subdomain', 'https://pay.shop.example.com/', 'ORIGIN_NOT_ALLOWED'],
    ['the shop as a username of another host', 'https://shop.example.com@evil.example/', 'CREDENTIALS'],
    ['a password', 'https://u:p@shop.example.com/', 'CREDENTIALS'],
    ['the shop in a fragment', 'https://evil.example#https://shop.example.com', 'FRAGMENT'],
    ['a fragment even on the shop', `${SHOP}/back#done`, 'FRAGMENT'],
    ['an empty fragment', `${SHOP}/#`, 'FRAGMENT'],
    ['another port', 'https://shop.example.com:8443/', 'ORIGIN_NOT_ALLOWED'],
    ['http on the shop’s host', 'http://shop.example.com/', 'SCHEME'],
    ['http on a non-loopback IP', 'http://10.0.0.1/', 'SCHEME'],
    ['http on a host named like localhost', 'http://localhost.evil.example/', 'SCHEME'],
    ['https on localhost with an unlisted port', 'https://localhost:5173/', 'ORIGIN_NOT_ALLOWED'],
    ['javascript:', 'javascript:alert(document.domain)//https://shop.example.com', 'SCHEME'],
    ['JavaScript: in mixed case', 'JaVaScRiPt:alert(1)', 'SCHEME'],
    ['data:', 'data:text/html,<script>alert(1)</script>', 'SCHEME'],
    ['a backslash that turns the shop into a path', 'https://evil.example\\@shop.example.com/', 'MALFORMED'],
    ['backslashes instead of slashes', 'https:\\\\shop.example.com\\back', 'MALFORMED'],
    ['a tab inside the host', 'https://shop.exa\tmple.com/', 'MALFORMED'],
    ['a newline inside the scheme', 'java\nscript:alert(1)', 'MALFORMED'],
    ['a leading space', ' https://shop.example.com/', 'MALFORMED'],
    ['a protocol-relative URL', '//shop.example.com/back', 'MALFORMED'],
    ['a relative path', '/back', 'MALFORMED'],
    ['two trailing dots', 'https://shop.example.com../', 'ORIGIN_NOT_ALLOWED'],
    ['a Cyrillic look-alike host', 'https://shop.еxample.com/', 'ORIGIN_NOT_ALLOWED'],
    ['a different IDN', 'https://shōp.example.com/', 'ORIGIN_NOT_ALLOWED'],
    ['a wildcard-looking host', 'https://*.example.com/', 'ORIGIN_NOT_ALLOWED'],
    ['an empty string', '', 'MALFORMED'],
  ])('refuses %s', (_name, url, problem) => {
    expect(redirectUrlProblem(url, allowed)).toBe(problem);
  });

  it('refuses everything when the merchant lists no origin', () => {
    expect(redirectUrlProblem(`${SHOP}/`, [])).toBe('ORIGIN_NOT_ALLOWED');
  });

  it('allowedRedirectUrl answers the parser’s serialisation, or a 422 naming the field and never the URL', () => {
    expect(allowedRedirectUrl('returnUrl', 'HTTPS://Shop.Example.com:443/a?b=1', allowed)).toBe('https://shop.example.com/a?b=1');
    const refused = (() => {
      try {
        allowedRedirectUrl('cancelUrl', 'https://evil.example/steal', allowed);
      } catch (error) {
        return error;
      }
    })() as InvalidRedirectUrlError;
    expect(refused).toBeInstanceOf(InvalidRedirectUrlError);
    expect(statusOf(refused).status).toBe(422);
    expect(refused.code).toBe('INVALID_REDIRECT_URL');
    expect(refused.detail).toMatch(/^cancelUrl is not allowed: its origin/);
    expect(refused.detail).not.toContain('evil');
  });

  it.each([
    ['localhost', true],
    ['localhost.', true],
    ['127.0.0.1', true],
    ['127.255.0.9', true],
    ['[::1]', true],
    ['128.0.0.1', false],
    ['localhost.evil.example', false],
    ['[::ffff:7f00:1]', false],
    ['0.0.0.0', false],
  ])('isLoopbackHost(%s) is %s', (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });
});

describe('normaliseOrigin (4.7 redirectOrigins)', () => {
  it.each([
    ['https://shop.example.com', SHOP],
    ['https://shop.example.com/', SHOP],
    ['HTTPS://Shop.Example.COM', SHOP],
    ['https://shop.example.com:443', SHOP],
    ['https://shop.example.com.', SHOP],
    ['https://shop.example.com:8443', 'https://shop.example.com:8443'],
    ['http://localhost:3000', 'http://localhost:3000'],
    ['http://127.0.0.1', 'http://127.0.0.1'],
    ['http://[::1]:80', 'http://[::1]'],
    ['https://shöp.example.com', 'https://xn--shp-tna.example.com'],
  ])('%s → %s', (raw, origin) => {
    expect(normaliseOrigin(raw)).toBe(origin);
  });

  it.each([
    'http://shop.example.com',
    'https://shop.example.com/path',
    'https://shop.example.com?q=1',
    'https://shop.example.com#x',
    'https://user@shop.example.com',
    'https://u:p@shop.example.com',
    'ftp://shop.example.com',
    'javascript:alert(1)',
    'shop.example.com',
    'https://',
    'https://*.example.com',
    'https://shop.example.com//',
    'https://shop.exa\tmple.com',
    'https://shop.example.com\\',
    ' https://shop.example.com',
    'https://shop.example.com..',
  ])('refuses %j', (raw) => {
    expect(normaliseOrigin(raw)).toBeUndefined();
  });
});

/** A DNS name of 1–3 labels under a fixed TLD, the way a merchant's shop would be called. */
const hostname = fc
  .array(fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,10}[a-z0-9])?$/), { minLength: 1, maxLength: 3 })
  .map((labels) => `${labels.join('.')}.example`);
const origin = fc
  .tuple(hostname, fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }))
  .map(([host, port]) => `https://${host}${port && port !== 443 ? `:${port}` : ''}`);
const browserOrigin = (raw: string) => {
  const url = new URL(raw);
  return `${url.protocol}//${url.hostname.replace(/\.$/, '')}${url.port ? `:${url.port}` : ''}`;
};
/** Pieces of the known tricks, glued together in any order. */
const trickPiece = fc.constantFrom(
  'https://',
  'http://',
  'HTTPS://',
  'javascript:',
  'data:',
  '//',
  'shop.example.com',
  'evil.example',
  '@',
  '#',
  '?',
  '\\',
  '.',
  ':443',
  ':8443',
  '/',
  '\t',
  '\n',
  ' ',
  'localhost',
  '127.0.0.1',
  '[::1]',
  'xn--',
  'ö',
  '%2e',
  '%40',
  'u:p@',
);

describe('redirectUrlProblem: properties', () => {
  it('allows every path and query under an allowed origin, and keeps that origin', () => {
    fc.assert(
      fc.property(origin, fc.webPath(), fc.webQueryParameters(), (allowedOrigin, path, query) => {
        const raw = `${allowedOrigin}${path.startsWith('/') ? path : `/${path}`}${query ? `?${query}` : ''}`;
        expect(redirectUrlProblem(raw, [allowedOrigin])).toBeUndefined();
        expect(browserOrigin(allowedRedirectUrl('returnUrl', raw, [allowedOrigin]))).toBe(allowedOrigin);
      }),
      { numRuns: 300 },
    );
  });

  it('whatever string is accepted, the browser’s origin for it is one of the allowed ones', () => {
    const candidates = fc.oneof(
      fc.array(trickPiece, { minLength: 1, maxLength: 8 }).map((pieces) => pieces.join('')),
      fc.webUrl({ withFragments: true, withQueryParameters: true }),
      fc.string(),
    );
    fc.assert(
      fc.property(candidates, (raw) => {
        if (redirectUrlProblem(raw, allowed) !== undefined) return;
        expect(allowed).toContain(browserOrigin(raw));
        expect(raw).not.toMatch(/[#\\\s]/);
        expect(new URL(raw).username + new URL(raw).password).toBe('');
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses any URL of an origin the merchant did not list', () => {
    fc.assert(
      fc.property(origin, origin, fc.webPath(), (listed, other, path) => {
        fc.pre(listed !== other);
        expect(redirectUrlProblem(`${other}/${path.replace(/^\//, '')}`, [listed])).toBe('ORIGIN_NOT_ALLOWED');
      }),
      { numRuns: 300 },
    );
  });

  it('normaliseOrigin is idempotent and agrees with the redirect check', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          origin,
          fc.array(trickPiece, { minLength: 1, maxLength: 6 }).map((p) => p.join('')),
        ),
        (raw) => {
          const normalised = normaliseOrigin(raw);
          if (normalised === undefined) return;
          expect(normaliseOrigin(normalised)).toBe(normalised);
          expect(redirectUrlProblem(`${raw.replace(/\/$/, '')}/back`, [normalised])).toBeUndefined();
        },
      ),
      { numRuns: 1000 },
    );
  });
});
