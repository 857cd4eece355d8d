import { describe, expect, it } from 'vitest';
import { publicBaseUrl } from '../../lib/http/params.js';

/** Links handed out (4.9 checkoutUrl, 3DS acsUrl): configuration (PUBLIC_BASE_URL) first, else the API's host over https. */
const event = (domainName?: string, headers: Record<string, string> = {}) => ({ requestContext: { domainName }, headers }) as never;

describe('publicBaseUrl', () => {
  it('uses PUBLIC_BASE_URL when set, without a trailing slash', () => {
    expect(publicBaseUrl(event('abc.execute-api.eu-west-1.amazonaws.com'), 'https://pay.example.com/')).toBe('https://pay.example.com');
  });

  it("otherwise the API's own host, over https unless the gateway says otherwise", () => {
    expect(publicBaseUrl(event('abc.execute-api.eu-west-1.amazonaws.com'), undefined)).toBe('https://abc.execute-api.eu-west-1.amazonaws.com');
    expect(publicBaseUrl(event(undefined, { host: 'localhost:3000', 'x-forwarded-proto': 'http' }), undefined)).toBe('http://localhost:3000');
    expect(publicBaseUrl(event(undefined, { host: 'localhost:3000' }), undefined)).toBe('https://localhost:3000'); // no guessing from the name
  });

  it('refuses to invent a host', () => {
    expect(() => publicBaseUrl(event(), undefined)).toThrow();
  });
});
