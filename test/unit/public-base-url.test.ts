import { describe, expect, it, vi } from 'vitest';

/** Links handed out (4.9 checkoutUrl, 3DS acsUrl): configuration first, else the API's host over https. */
async function params(publicBaseUrl: string | undefined) {
  vi.resetModules();
  const saved = process.env.PUBLIC_BASE_URL;
  if (publicBaseUrl === undefined) delete process.env.PUBLIC_BASE_URL;
  else process.env.PUBLIC_BASE_URL = publicBaseUrl;
  try {
    return await import('../../lib/http/params.js');
  } finally {
    process.env.PUBLIC_BASE_URL = saved;
  }
}
const event = (domainName?: string, headers: Record<string, string> = {}) => ({ requestContext: { domainName }, headers }) as never;

describe('publicBaseUrl', () => {
  it('uses PUBLIC_BASE_URL when set, without a trailing slash', async () => {
    const { publicBaseUrl } = await params('https://pay.example.com/');
    expect(publicBaseUrl(event('abc.execute-api.eu-west-1.amazonaws.com'))).toBe('https://pay.example.com');
  });

  it("otherwise the API's own host, over https unless the gateway says otherwise", async () => {
    const { publicBaseUrl } = await params(undefined);
    expect(publicBaseUrl(event('abc.execute-api.eu-west-1.amazonaws.com'))).toBe('https://abc.execute-api.eu-west-1.amazonaws.com');
    expect(publicBaseUrl(event(undefined, { host: 'localhost:3000', 'x-forwarded-proto': 'http' }))).toBe('http://localhost:3000');
    expect(publicBaseUrl(event(undefined, { host: 'localhost:3000' }))).toBe('https://localhost:3000'); // no guessing from the name
  });

  it('refuses to invent a host', async () => {
    const { publicBaseUrl } = await params(undefined);
    expect(() => publicBaseUrl(event())).toThrow();
  });
});
