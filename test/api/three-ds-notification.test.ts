import { describe, expect, it } from 'vitest';
import { handler } from '../../functions/three-ds-notification/handler.js';
import { invoke } from '../support/invoke.js';

/**
 * POST /checkout/3ds-notification (SPEC 4.10): the ACS form-POSTs the final cres here in the
 * challenge frame; the answer hands it to the checkout page, and to nothing else.
 */
const CRES = Buffer.from(JSON.stringify({ messageType: 'CRes', threeDSServerTransID: 'a', acsTransID: 'b', transStatus: 'Y' })).toString('base64url');
const SESSION_DATA = 'c2Vzc2lvbi1kYXRhLTEyMw';
const notify = (fields: Record<string, string>, contentType = 'application/x-www-form-urlencoded') =>
  invoke(handler, { method: 'POST', path: '/checkout/3ds-notification', body: new URLSearchParams(fields).toString(), contentType });

describe('POST /checkout/3ds-notification', () => {
  it('answers a page that posts the cres and session data to its parent, targeted at the service’s own origin', async () => {
    const response = await notify({ cres: CRES, threeDSSessionData: SESSION_DATA });
    expect(response.status).toBe(200);
    expect(response.headers['Content-Type']).toBe('text/html; charset=utf-8');
    const script = /<script nonce="([^"]+)">([^<]*)<\/script>/.exec(response.raw);
    expect(script).not.toBeNull();
    const [, nonce, code] = script!;
    expect(code).toContain(
      `window.parent.postMessage({"type":"ctp-3ds-notification","cres":"${CRES}","threeDSSessionData":"${SESSION_DATA}"},"https://pay.test.example")`,
    );
    expect(response.raw).not.toMatch(/postMessage\([^)]*,\s*["']\*["']\)/);
    expect(response.raw.match(/postMessage/g)).toHaveLength(1);
    expect(response.raw).not.toMatch(/style=|<style|<link/); // nothing its CSP (default-src 'none') would refuse
    const csp = response.headers['Content-Security-Policy']!;
    expect(csp.split('; ').sort()).toEqual(
      ["base-uri 'none'", "default-src 'none'", "form-action 'none'", "frame-ancestors 'self'", `script-src 'nonce-${nonce}'`].sort(),
    );
    expect(response.headers).toMatchObject({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer', 'X-Content-Type-Options': 'nosniff' });
  });

  it('needs no token and puts none in the page: only the cres and the session data travel', async () => {
    const response = await notify({ cres: CRES });
    expect(response.status).toBe(200);
    expect(response.raw).not.toMatch(/hs_|Bearer|session=/);
    expect(response.raw).not.toContain('threeDSSessionData'); // absent stays absent
  });

  it('a fresh nonce per answer', async () => {
    const [a, b] = await Promise.all([notify({ cres: CRES }), notify({ cres: CRES })]);
    expect(a.headers['Content-Security-Policy']).not.toBe(b.headers['Content-Security-Policy']);
  });

  it('refuses anything but base64url values (400), never reflecting them: XSS attempts', async () => {
    const attempts = [
      '</script><script>alert(1)</script>',
      '"-alert(1)-"',
      "';alert(1);//",
      '\u2028alert(1)',
      '<img src=x onerror=alert(1)>',
      'abc def',
      'a'.repeat(8193),
    ];
    for (const attempt of attempts) {
      for (const fields of [{ cres: attempt }, { cres: CRES, threeDSSessionData: attempt }] as Record<string, string>[]) {
        const response = await notify(fields);
        expect(response.status, JSON.stringify(fields)).toBe(400);
        expect(response.raw).not.toContain('alert(1)');
        expect(response.raw).not.toContain('<script');
        expect(response.raw).not.toContain('onerror');
      }
    }
    expect((await notify({})).status).toBe(400);
    expect((await notify({ cres: CRES, threeDSSessionData: 'a'.repeat(1025) })).status).toBe(400);
  });

  it('refuses a body that is not form-encoded (415)', async () => {
    expect((await invoke(handler, { method: 'POST', path: '/checkout/3ds-notification', body: { cres: CRES } })).status).toBe(415);
    expect((await notify({ cres: CRES }, 'text/plain')).status).toBe(415);
  });

  it('reads a base64-encoded body as API Gateway may hand it over', async () => {
    const body = Buffer.from(new URLSearchParams({ cres: CRES }).toString()).toString('base64');
    const response = await handler({
      version: '2.0',
      routeKey: 'POST /checkout/3ds-notification',
      rawPath: '/checkout/3ds-notification',
      rawQueryString: '',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8', host: 'pay.test.example' },
      requestContext: { http: { method: 'POST' } },
      body,
      isBase64Encoded: true,
    } as never);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(CRES);
  });
});
