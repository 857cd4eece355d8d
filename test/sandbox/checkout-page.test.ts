import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb, type WebBuild } from '../../infra/local/build-web.js';
import { hashSessionToken, newSessionToken } from '../../lib/core/auth/session-token.js';
import { renderPage } from '../../lib/http/checkout-page/bootstrap.js';
import { createCheckoutPageHandler } from '../../lib/http/checkout-page/page-handler.js';
import { WebAssets } from '../../lib/http/checkout-page/web-assets.js';
import { BOOTSTRAP_MARKER } from '../../lib/http/checkout-page/web-manifest.js';
import { sessionRepository } from '../../lib/composition/core.js';
import { epochSeconds } from '../../lib/adapters/dynamodb/dynamo.js';
import { invoke, type InvokeResult } from '../support/invoke.js';

/** GET /checkout and its assets, against a real build of web/src in a temporary directory. */
let dir: string;
let web: WebBuild;
let handler: ReturnType<typeof createCheckoutPageHandler>;

const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-src 'self'; " +
  "form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ctp-web-'));
  web = await buildWeb({ outDir: join(dir, 'dist'), log: () => {} });
  handler = createCheckoutPageHandler({ sessions: sessionRepository, assets: new WebAssets(web.outDir), now: Date.now });
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const page = (session?: string, h = handler) => invoke(h, { path: '/checkout', ...(session === undefined ? {} : { query: { session } }) });
const asset = (file: string, headers: Record<string, string> = {}) => invoke(handler, { path: `/checkout/assets/${file}`, pathParameters: { file }, headers });
const bootstrapOf = (response: InvokeResult) =>
  JSON.parse(/<script type="application\/json" id="bootstrap">([^<]*)<\/script>/.exec(response.raw)![1]!) as Record<string, unknown>;

async function storedSession(expiresAt: number): Promise<string> {
  const token = newSessionToken();
  await sessionRepository.create({
    tokenHash: hashSessionToken(token),
    orderRef: 'order-1',
    outletId: 'outlet-1',
    merchantRef: 'merchant-1',
    tenantRef: 'tenant-1',
    expiresAt,
    createdAt: new Date().toISOString(),
  });
  return token;
}

describe('GET /checkout', () => {
  it('renders the page with the bootstrap of a valid session, never the token, under a strict CSP', async () => {
    const token = await storedSession(epochSeconds() + 600);
    const response = await page(token);
    expect(response.status).toBe(200);
    expect(bootstrapOf(response)).toEqual({ orderRef: 'order-1', outletId: 'outlet-1', merchantRef: 'merchant-1', expiresAt: expect.any(String) });
    expect(response.raw).not.toContain(token);
    expect(response.raw).not.toContain(token.slice(3));
    expect(response.raw).toContain(`<script type="module" src="/checkout/assets/${web.manifest.script}"></script>`);
    expect(response.raw).toContain('<div id="app"></div>');
    expect(response.headers).toMatchObject({
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': CSP,
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    });
  });

  it('hands the page the Accept header of its own navigation (an EMV 3DS AReq needs it; JavaScript cannot read it), escaped and bounded', async () => {
    const token = await storedSession(Math.floor(Date.now() / 1000) + 600);
    const accept = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8</script><script>alert(1)</script>';
    const response = await invoke(handler, { path: '/checkout', query: { session: token }, headers: { accept } });
    expect(bootstrapOf(response).acceptHeader).toBe(accept);
    expect(response.raw).not.toContain('</script><script>alert(1)');
    const long = await invoke(handler, { path: '/checkout', query: { session: token }, headers: { accept: 'a'.repeat(5000) } });
    expect(bootstrapOf(long).acceptHeader).toHaveLength(2048);
    const invalid = await invoke(handler, { path: '/checkout', query: { session: 'nope' }, headers: { accept } });
    expect(bootstrapOf(invalid)).toEqual({ error: 'SESSION_INVALID' });
  });

  it('tells an expired session from an unknown or malformed one (both 200, friendly page)', async () => {
    const expired = await page(await storedSession(epochSeconds() - 1));
    expect([expired.status, bootstrapOf(expired)]).toEqual([200, { error: 'SESSION_EXPIRED' }]);
    for (const session of [newSessionToken(), 'abc', '</script><script>alert(1)</script>', undefined]) {
      const response = await page(session);
      expect([response.status, bootstrapOf(response)], String(session)).toEqual([200, { error: 'SESSION_INVALID' }]);
      expect(response.raw).not.toContain('alert(1)');
    }
  });

  it('adds the configured network SDK origins to the CSP and the bootstrap', async () => {
    const sdkUrls = {
      visa: 'https://sandbox.secure.checkout.visa.com/checkout-widget/resources/js/integration/v2/sdk.js',
      mastercard: 'https://sandbox.src.mastercard.com/srci/integration/2/lib.js',
    };
    const withSdks = createCheckoutPageHandler({ sessions: sessionRepository, assets: new WebAssets(web.outDir), now: Date.now, sdkUrls });
    const response = await page(await storedSession(epochSeconds() + 600), withSdks);
    expect(bootstrapOf(response).sdkUrls).toEqual(sdkUrls);
    const csp = response.headers['Content-Security-Policy']!;
    for (const directive of ['script-src', 'connect-src', 'frame-src']) {
      expect(csp).toContain(`${directive} 'self' https://sandbox.secure.checkout.visa.com https://sandbox.src.mastercard.com;`);
    }
    expect(csp).toContain("style-src 'self';");
  });

  it('escapes the bootstrap so no value can close its script element', () => {
    const html = renderPage(`<script type="application/json" id="bootstrap">${BOOTSTRAP_MARKER}</script>`, {
      orderRef: '</script><!--&',
      outletId: 'o',
      merchantRef: '$&',
      expiresAt: '',
    });
    expect(html).not.toContain('</script><!--');
    expect(JSON.parse(/id="bootstrap">([^<]*)</.exec(html)![1]!)).toMatchObject({ orderRef: '</script><!--&', merchantRef: '$&' });
  });

  it('answers 503 while the page is not built', async () => {
    const unbuilt = createCheckoutPageHandler({ sessions: sessionRepository, assets: new WebAssets(join(dir, 'missing')), now: Date.now });
    const response = await page(undefined, unbuilt);
    expect(response.status).toBe(503);
    expect(response.headers['Content-Type']).toBe('text/html; charset=utf-8');
  });
});

describe('GET /checkout/assets/{file}', () => {
  it('serves a built file with its content type, a year of immutable caching, gzip on request', async () => {
    const file = web.manifest.script;
    const built = await readFile(join(web.outDir, 'assets', file));
    const plain = await asset(file);
    expect(plain.status).toBe(200);
    expect(plain.headers).toMatchObject({
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': 'public, max-age=31536000, immutable',
      'X-Content-Type-Options': 'nosniff',
    });
    expect(Buffer.from(plain.raw, 'base64').equals(built)).toBe(true);
    const gzipped = await asset(file, { 'accept-encoding': 'gzip, deflate, br' });
    expect(gzipped.headers['Content-Encoding']).toBe('gzip');
    expect(gunzipSync(Buffer.from(gzipped.raw, 'base64')).equals(built)).toBe(true);
    const [css] = web.manifest.styles;
    if (css) expect((await asset(css)).headers['Content-Type']).toBe('text/css; charset=utf-8');
  });

  it('serves nothing that is not a built asset: traversal, the shell, the manifest → 404', async () => {
    for (const file of ['../manifest.json', '..', '..%2Findex.html', '%2e%2e%2fmanifest.json', 'manifest.json', 'index.html', 'nope.js', '.hidden']) {
      const response = await asset(file);
      expect(response.status, file).toBe(404);
      expect(response.body.code, file).toBe('NOT_FOUND');
    }
  });
});
