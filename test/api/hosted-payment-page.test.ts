import { createHash } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as createOrder } from '../../functions/create-order/handler.js';
import { handler as getOrder } from '../../functions/get-order/handler.js';
import { handler as createSession } from '../../functions/create-hosted-session/handler.js';
import { handler as getMerchantConfig } from '../../functions/get-merchant-config/handler.js';
import { handler as putMerchantConfig } from '../../functions/put-merchant-config/handler.js';
import { documentClient } from '../../lib/composition/aws.js';
import { bootstrapFor } from '../../lib/http/checkout-page/bootstrap.js';
import { sessionRepository } from '../../lib/composition/core.js';
import * as resources from '../../lib/http/resource-schemas.js';
import { invoke } from '../support/invoke.js';
import { seedMerchant, uniqueRef, type SeededMerchant } from '../support/seed.js';
import { platformToken, tenantToken } from '../support/tokens.js';

/**
 * SPEC 4.7 `redirectOrigins`, 4.8 hosted payment page (`returnUrl` / `cancelUrl`, the 201's
 * `checkoutUrl`), §2 INVALID_REDIRECT_URL, and what the page's bootstrap learns from the session.
 */
let token: string;
let shop: SeededMerchant;
const SHOP = 'https://shop.example.com';

const onboarding = (tenantRef: string, outlets: string[], redirectOrigins?: unknown) => ({
  tenantRef,
  dpaId: 'dpa-hpp',
  dpaClientId: 'client-hpp',
  dpaName: 'Falcon & Sons',
  cardBrands: ['visa'],
  outlets,
  ...(redirectOrigins === undefined ? {} : { redirectOrigins }),
});
const putConfig = (merchantRef: string, body: unknown) =>
  invoke(putMerchantConfig, { method: 'PUT', path: `/config/merchants/${merchantRef}/configs/vctp`, pathParameters: { merchantRef }, token, body });
const getConfig = (merchantRef: string) =>
  invoke(getMerchantConfig, { path: `/config/merchants/${merchantRef}/configs/vctp`, pathParameters: { merchantRef }, token });
const newOrder = (outletId: string, extra: Record<string, unknown>, bearer = token, headers: Record<string, string> = {}) =>
  invoke(createOrder, {
    method: 'POST',
    path: `/transactions/outlets/${outletId}/orders`,
    pathParameters: { outletId },
    token: bearer,
    headers,
    body: { action: 'PURCHASE', amount: { currencyCode: 'AED', value: 2500 }, ...extra },
  });
const readOrder = (outletId: string, orderRef: string, bearer = token) =>
  invoke(getOrder, { path: `/transactions/outlets/${outletId}/orders/${orderRef}`, pathParameters: { outletId, orderRef }, token: bearer });
const sessionOf = (checkoutUrl: string) => new URL(checkoutUrl).searchParams.get('session')!;
const storedSession = async (sessionToken: string) =>
  (await documentClient.send(new GetCommand({ TableName: process.env.SESSIONS_TABLE, Key: { pk: createHash('sha256').update(sessionToken).digest('hex') } })))
    .Item!;

beforeAll(async () => {
  token = await platformToken();
  shop = await seedMerchant({ dpaName: 'Falcon & Sons', redirectOrigins: [SHOP, 'http://localhost:5173'] });
});

describe('4.7 redirectOrigins', () => {
  it('stores the origins normalised and without duplicates, and 4.1 returns them', async () => {
    const merchantRef = uniqueRef('m');
    const origins = [
      'HTTPS://Shop.Example.COM:443/',
      'https://shop.example.com.',
      'http://LOCALHOST:3000',
      'https://pay.example.com:8443',
      'http://[::1]:8080',
    ];
    const put = await putConfig(merchantRef, onboarding(shop.tenantRef, [uniqueRef('o')], origins));
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const expected = ['https://shop.example.com', 'http://localhost:3000', 'https://pay.example.com:8443', 'http://[::1]:8080'];
    expect(put.body.redirectOrigins).toEqual(expected);
    const read = await getConfig(merchantRef);
    resources.merchantConfigResource.parse(read.body);
    expect(read.body.redirectOrigins).toEqual(expected);
  });

  it('is not shown to a hosted-session token (the shopper’s browser), nor are the outlets: only the merchant reads them', async () => {
    const created = await newOrder(shop.outletId, { returnUrl: `${SHOP}/done` });
    const read = await invoke(getMerchantConfig, {
      path: `/config/merchants/${shop.merchantRef}/configs/vctp`,
      pathParameters: { merchantRef: shop.merchantRef },
      token: sessionOf(created.body.checkoutUrl),
    });
    expect(read.status).toBe(200);
    expect(read.body.dpaName).toBe('Falcon & Sons');
    expect(read.body).not.toHaveProperty('redirectOrigins');
    expect(read.body).not.toHaveProperty('outlets');
    expect((await getConfig(shop.merchantRef)).body.redirectOrigins).toContain(SHOP);
    expect((await getConfig(shop.merchantRef)).body.outlets).toContain(shop.outletId);
  });

  it('answers an empty list when none were given, and a replacement without them clears them', async () => {
    const merchantRef = uniqueRef('m');
    const outlet = uniqueRef('o');
    expect((await putConfig(merchantRef, onboarding(shop.tenantRef, [outlet]))).body.redirectOrigins).toEqual([]);
    await putConfig(merchantRef, onboarding(shop.tenantRef, [outlet], [SHOP]));
    expect((await getConfig(merchantRef)).body.redirectOrigins).toEqual([SHOP]);
    await putConfig(merchantRef, onboarding(shop.tenantRef, [outlet]));
    expect((await getConfig(merchantRef)).body.redirectOrigins).toEqual([]);
  });

  it.each([
    ['http on a public host', 'http://shop.example.com'],
    ['a path', 'https://shop.example.com/checkout'],
    ['a query', 'https://shop.example.com?x=1'],
    ['a fragment', 'https://shop.example.com#x'],
    ['credentials', 'https://user:pw@shop.example.com'],
    ['javascript:', 'javascript:alert(1)'],
    ['no scheme', 'shop.example.com'],
    ['a wildcard', 'https://*.example.com'],
    ['a backslash', 'https://shop.example.com\\'],
    ['a tab', 'https://shop.exa\tmple.com'],
    ['a number', 42],
  ])('refuses %s with 400 naming the entry', async (_name, origin) => {
    const response = await putConfig(uniqueRef('m'), onboarding(shop.tenantRef, [uniqueRef('o')], [SHOP, origin]));
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('INVALID_REQUEST');
    expect(response.body.errors.map((e: { path: string }) => e.path)).toContain('redirectOrigins.1');
  });

  it('refuses more than 20 origins', async () => {
    const origins = Array.from({ length: 21 }, (_, i) => `https://shop${i}.example.com`);
    expect((await putConfig(uniqueRef('m'), onboarding(shop.tenantRef, [uniqueRef('o')], origins))).status).toBe(400);
  });
});

describe('4.8 returnUrl and cancelUrl', () => {
  it('answers checkoutUrl and checkoutExpiresAt, stores the URLs on the order, and GET order returns them', async () => {
    const created = await newOrder(shop.outletId, { returnUrl: `${SHOP}/orders/42/done?lang=en`, cancelUrl: `${SHOP}/cart` });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    resources.createdOrderResource.parse(created.body);
    expect(created.body).toMatchObject({ returnUrl: `${SHOP}/orders/42/done?lang=en`, cancelUrl: `${SHOP}/cart`, state: 'STARTED' });
    expect(created.body.checkoutUrl).toMatch(/^https:\/\/pay\.test\.example\/checkout\?session=hs_[A-Za-z0-9_-]{43}$/);
    const ttl = Date.parse(created.body.checkoutExpiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(29 * 60_000);
    expect(ttl).toBeLessThanOrEqual(30 * 60_000);

    const read = await readOrder(shop.outletId, created.body.orderRef);
    resources.orderResource.parse(read.body);
    const { checkoutUrl: _url, checkoutExpiresAt: _exp, ...order } = created.body;
    expect(read.body).toEqual(order);
    expect(read.body.checkoutUrl).toBeUndefined();
  });

  it('mints a working hosted session: the token reads its order, and the item stores the URLs and shop name', async () => {
    const created = await newOrder(shop.outletId, { returnUrl: `${SHOP}/back` });
    const session = sessionOf(created.body.checkoutUrl);
    expect((await readOrder(shop.outletId, created.body.orderRef, session)).status).toBe(200);
    const item = await storedSession(session);
    expect(item).toMatchObject({ orderRef: created.body.orderRef, returnUrl: `${SHOP}/back`, shopName: 'Falcon & Sons' });
    expect(item.cancelUrl).toBeUndefined();
    expect(JSON.stringify(item)).not.toContain(session);
  });

  it('stores the URL as the parser serialises it (case, default port)', async () => {
    const created = await newOrder(shop.outletId, { returnUrl: 'HTTPS://SHOP.example.com:443/Done', cancelUrl: 'http://localhost:5173/cancel' });
    expect(created.status).toBe(201);
    expect(created.body.returnUrl).toBe(`${SHOP}/Done`);
    expect(created.body.cancelUrl).toBe('http://localhost:5173/cancel');
  });

  it('has no checkoutUrl and no session without a returnUrl (unchanged 4.8)', async () => {
    const created = await newOrder(shop.outletId, {});
    expect(created.status).toBe(201);
    expect(created.body.checkoutUrl).toBeUndefined();
    expect(created.body.returnUrl).toBeUndefined();
  });

  it.each([
    ['a look-alike host that starts with the shop’s', 'https://shop.example.com.evil.example/back'],
    ['the shop as a username', 'https://shop.example.com@evil.example/back'],
    ['the shop in a fragment', 'https://evil.example#https://shop.example.com'],
    ['a fragment on the shop', `${SHOP}/back#x`],
    ['another port', 'https://shop.example.com:8443/back'],
    ['http on the shop’s host', 'http://shop.example.com/back'],
    ['javascript:', 'javascript:alert(1)'],
    ['data:', 'data:text/html,hi'],
    ['a backslash', 'https://evil.example\\@shop.example.com/'],
    ['a newline', 'https://shop.example.com/\nback'],
    ['a relative URL', '/back'],
    ['an IDN look-alike', 'https://shop.еxample.com/'],
    ['localhost on another port', 'http://localhost:5174/'],
  ])('refuses a returnUrl with %s: 422 INVALID_REDIRECT_URL, nothing created', async (_name, returnUrl) => {
    const response = await newOrder(shop.outletId, { returnUrl, merchantOrderReference: uniqueRef('refused') });
    expect(response.status).toBe(422);
    expect(response.headers['Content-Type']).toBe('application/problem+json');
    expect(response.body).toMatchObject({ code: 'INVALID_REDIRECT_URL', status: 422 });
    expect(response.body.detail).toMatch(/^returnUrl is not allowed/);
    expect(response.raw).not.toContain('evil');
    resources.problemResource.parse(response.body);
  });

  it('checks cancelUrl the same way', async () => {
    const response = await newOrder(shop.outletId, { returnUrl: `${SHOP}/ok`, cancelUrl: 'https://evil.example/cancel' });
    expect(response.status).toBe(422);
    expect(response.body.detail).toMatch(/^cancelUrl is not allowed/);
  });

  it('refuses every returnUrl for a merchant without redirectOrigins', async () => {
    const bare = await seedMerchant();
    const response = await newOrder(bare.outletId, { returnUrl: `${SHOP}/ok` });
    expect(response.status).toBe(422);
    expect(response.body.code).toBe('INVALID_REDIRECT_URL');
  });

  it('refuses a cancelUrl without a returnUrl (400), and non-string or over-long URLs (400)', async () => {
    const alone = await newOrder(shop.outletId, { cancelUrl: `${SHOP}/cart` });
    expect(alone.status).toBe(400);
    expect(alone.body.errors.map((e: { path: string }) => e.path)).toContain('cancelUrl');
    expect((await newOrder(shop.outletId, { returnUrl: 42 })).status).toBe(400);
    expect((await newOrder(shop.outletId, { returnUrl: '' })).status).toBe(400);
    expect((await newOrder(shop.outletId, { returnUrl: `${SHOP}/${'a'.repeat(2048)}` })).status).toBe(400);
  });

  it('checks the origins of the merchant that owns the outlet, not those of another merchant', async () => {
    const other = await seedMerchant({ tenantRef: shop.tenantRef, redirectOrigins: ['https://other.example'] });
    expect((await newOrder(other.outletId, { returnUrl: `${SHOP}/ok` })).status).toBe(422);
    expect((await newOrder(other.outletId, { returnUrl: 'https://other.example/ok' })).status).toBe(201);
  });

  it('keeps scope first: an outlet outside the token is 404 even with a bad returnUrl', async () => {
    const stranger = await tenantToken({ tenantRef: uniqueRef('t'), permissions: ['CREATE_ORDER'] });
    expect((await newOrder(shop.outletId, { returnUrl: 'javascript:alert(1)' }, stranger)).status).toBe(404);
  });

  it('replays the same 201 (the same checkoutUrl) for the same Idempotency-Key, and mints one session', async () => {
    const key = crypto.randomUUID();
    const first = await newOrder(shop.outletId, { returnUrl: `${SHOP}/ok` }, token, { 'Idempotency-Key': key });
    const again = await newOrder(shop.outletId, { returnUrl: `${SHOP}/ok` }, token, { 'Idempotency-Key': key });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers['Idempotent-Replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
  });
});

describe('the hosted page’s bootstrap', () => {
  const bootstrap = (sessionToken: string) => bootstrapFor(sessionToken, { sessions: sessionRepository, now: Date.now });

  it('carries returnUrl, cancelUrl and shopName from a 4.8 session', async () => {
    const created = await newOrder(shop.outletId, { returnUrl: `${SHOP}/done`, cancelUrl: `${SHOP}/cart` });
    expect(await bootstrap(sessionOf(created.body.checkoutUrl))).toEqual({
      orderRef: created.body.orderRef,
      outletId: shop.outletId,
      merchantRef: shop.merchantRef,
      expiresAt: created.body.checkoutExpiresAt,
      returnUrl: `${SHOP}/done`,
      cancelUrl: `${SHOP}/cart`,
      shopName: 'Falcon & Sons',
    });
  });

  it('a 4.9 session of an order with a returnUrl carries them too; one without a returnUrl only the shop name', async () => {
    const withReturn = await newOrder(shop.outletId, { returnUrl: `${SHOP}/done` });
    const minted = await invoke(createSession, {
      method: 'POST',
      path: `/transactions/outlets/${shop.outletId}/orders/${withReturn.body.orderRef}/hosted-sessions`,
      pathParameters: { outletId: shop.outletId, orderRef: withReturn.body.orderRef },
      token,
    });
    expect(minted.status).toBe(201);
    expect(await bootstrap(minted.body.sessionToken)).toMatchObject({ returnUrl: `${SHOP}/done`, shopName: 'Falcon & Sons' });
    expect(await bootstrap(minted.body.sessionToken)).not.toHaveProperty('cancelUrl');

    const plain = await newOrder(shop.outletId, {});
    const plainSession = await invoke(createSession, {
      method: 'POST',
      path: `/transactions/outlets/${shop.outletId}/orders/${plain.body.orderRef}/hosted-sessions`,
      pathParameters: { outletId: shop.outletId, orderRef: plain.body.orderRef },
      token,
    });
    const boot = await bootstrap(plainSession.body.sessionToken);
    expect(boot).toMatchObject({ orderRef: plain.body.orderRef, shopName: 'Falcon & Sons' });
    expect(boot).not.toHaveProperty('returnUrl');
    expect(boot).not.toHaveProperty('cancelUrl');
  });
});
