import { describe, expect, it } from 'vitest';
import { handler } from '../../functions/three-ds-method-notification/handler.js';
import { invoke } from '../support/invoke.js';

/**
 * POST /checkout/3ds-method-notification (SPEC 4.17): the ACS's 3DS Method page, in the checkout
 * page's hidden iframe, form-POSTs its completion here; the answer tells the checkout page (and
 * nothing else) which transaction completed.
 */
const ID = '6b91f61e-9e62-4f5c-ab8c-f1ffb84122cb';
const data = (value: unknown, padded = false) => {
  const encoded = Buffer.from(JSON.stringify(value)).toString('base64url');
  return padded ? encoded.padEnd(Math.ceil(encoded.length / 4) * 4, '=') : encoded;
};
const notify = (fields: Record<string, string>, contentType = 'application/x-www-form-urlencoded') =>
  invoke(handler, { method: 'POST', path: '/checkout/3ds-method-notification', body: new URLSearchParams(fields).toString(), contentType });

describe('POST /checkout/3ds-method-notification', () => {
  it('answers a page that posts {type, threeDSServerTransID} to its parent, targeted at the service’s own origin only', async () => {
    const response = await notify({ threeDSMethodData: data({ threeDSServerTransID: ID }) });
    expect(response.status).toBe(200);
    const script = /<script nonce="([^"]+)">([^<]*)<\/script>/.exec(response.raw);
    expect(script).not.toBeNull();
    const [, nonce, code] = script!;
    expect(code).toContain(`window.parent.postMessage({"type":"ctp-3ds-method","threeDSServerTransID":"${ID}"},"https://pay.test.example")`);
    expect(response.raw.match(/postMessage/g)).toHaveLength(1);
    const csp = response.headers['Content-Security-Policy']!;
    expect(csp.split('; ').sort()).toEqual(
      ["base-uri 'none'", "default-src 'none'", "form-action 'none'", "frame-ancestors 'self'", `script-src 'nonce-${nonce}'`].sort(),
    );
    expect(response.headers).toMatchObject({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer', 'X-Content-Type-Options': 'nosniff' });
  });

  it('reads threeDSMethodData padded or not (3dsmethod.rst: both must be accepted)', async () => {
    const value = { threeDSServerTransID: ID, pad: 'xx' };
    expect(data(value, true)).toMatch(/=$/);
    expect((await notify({ threeDSMethodData: data(value, true) })).raw).toContain(ID);
  });

  it('refuses anything that is not a completion naming a UUID (400, nothing reflected), and non-form bodies (415)', async () => {
    for (const bad of [
      data({ threeDSServerTransID: '</script><script>alert(1)</script>' }),
      data({ other: ID }),
      data([ID]),
      '"-alert(1)-"',
      'bm90LWpzb24',
      '',
      'a'.repeat(1025),
    ]) {
      const response = await notify({ threeDSMethodData: bad });
      expect(response.status, bad).toBe(400);
      expect(response.raw).not.toContain('<script');
      expect(response.raw).not.toContain('alert');
    }
    expect((await notify({ threeDSMethodData: data({ threeDSServerTransID: ID }) }, 'application/json')).status).toBe(415);
  });
});
