import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { handler as getOrder } from '../../functions/get-order/handler.js';
import { paymentLinkRepository } from '../../lib/composition/payment-links.js';
import { LINK_PAGE_CSP } from '../../lib/http/pay-link-page/link-page.js';
import { paymentLinkResource } from '../../lib/http/resource-schemas.js';
import { DependencyUnavailableError } from '../../lib/core/errors.js';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../lib/composition/aws.js';
import { serviceConfig } from '../../lib/composition/config/service-config.js';
import { checkoutResponse } from '../support/checkout.js';
import { hashSessionToken } from '../../lib/core/auth/session-token.js';
import { sessionRepository } from '../../lib/composition/core.js';
import { invoke } from '../support/invoke.js';
import { cancelPaymentLink, createPaymentLink, linkBody, openPaymentLink, readPaymentLink, sessionOf } from '../support/payment-links.js';
import { pay } from '../support/payments.js';
import { onboardDemoMerchant, seedMerchant, setTenant, uniqueRef, type SeededMerchant } from '../support/seed.js';
import { platformToken, tenantToken } from '../support/tokens.js';

let token: string;
let m: SeededMerchant;
const DAY = 86_400_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  token = await platformToken();
  m = await seedMerchant();
});

/** 4.7 again for the same merchant and outlets, with other redirectOrigins. */
async function onboardAgain(merchant: SeededMerchant, redirectOrigins: string[]) {
  await onboardDemoMerchant(merchant.merchantRef, merchant.tenantRef, [merchant.outletId, merchant.otherOutletId], { redirectOrigins });
}

async function newLink(body: Record<string, unknown> = {}, merchant = m) {
  const created = await createPaymentLink(merchant.outletId, token, linkBody(body));
  expect(created.status, created.raw).toBe(201);
  return created.body as { linkRef: string; url: string; expiresAt: string };
}

/** Opens the link, pays its order with the sandbox through the hosted session, as the page would. */
async function payLink(linkRef: string, outletId = m.outletId) {
  const opened = await openPaymentLink(linkRef);
  expect(opened.status).toBe(303);
  const session = await sessionOf(opened);
  const order = await invoke(getOrder, {
    path: `/transactions/outlets/${outletId}/orders/${session.orderRef}`,
    pathParameters: { outletId, orderRef: session.orderRef },
    token: session.token,
  });
  const paymentRef = order.body.payments[0].paymentRef as string;
  const paid = await pay({ outletId, orderRef: session.orderRef, paymentRef }, session.token, await checkoutResponse());
  expect(paid.body.state).toBe('AUTHORISED');
  return { orderRef: session.orderRef, paymentRef };
}

describe('4.14 create and read', () => {
  it('creates an ACTIVE link with an unguessable ref, a /pay URL and a 7-day default expiry, and reads it back', async () => {
    const before = Date.now();
    const created = await createPaymentLink(m.outletId, token, linkBody({ description: 'Invoice 42', merchantOrderReference: 'INV-42' }));
    expect(created.status).toBe(201);
    expect(paymentLinkResource.safeParse(created.body).success).toBe(true);
    expect(created.body).toMatchObject({
      state: 'ACTIVE',
      action: 'AUTH',
      amount: { currencyCode: 'AED', value: 2500 },
      description: 'Invoice 42',
      merchantOrderReference: 'INV-42',
    });
    expect(created.body.url).toBe(`https://pay.test.example/pay/${created.body.linkRef}`);
    const expiry = Date.parse(created.body.expiresAt) - before;
    expect(expiry).toBeGreaterThanOrEqual(7 * DAY - 1000);
    expect(expiry).toBeLessThanOrEqual(7 * DAY + 5000);
    const read = await readPaymentLink(m.outletId, created.body.linkRef, token);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
  });

  it('gives every link 128 random bits: pl_ + 22 base64url characters, never repeated', async () => {
    const refs = await Promise.all(Array.from({ length: 8 }, async () => (await newLink()).linkRef));
    for (const ref of refs) {
      expect(ref).toMatch(/^pl_[A-Za-z0-9_-]{22}$/);
      expect(Buffer.from(ref.slice(3), 'base64url')).toHaveLength(16);
    }
    expect(new Set(refs).size).toBe(refs.length);
  });

  it.each([
    ['in the past', () => new Date(Date.now() - 60_000).toISOString(), 'Must be in the future'],
    ['more than 30 days ahead', () => new Date(Date.now() + 30 * DAY + 60_000).toISOString(), 'Must be at most 30 days from now'],
    ['not a date-time', () => 'next tuesday', undefined],
  ])('refuses an expiresAt %s with 400 naming expiresAt', async (_name, expiresAt, message) => {
    const response = await createPaymentLink(m.outletId, token, linkBody({ expiresAt: expiresAt() }));
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('INVALID_REQUEST');
    expect(response.body.errors[0].path).toBe('expiresAt');
    if (message) expect(response.body.errors[0].message).toBe(message);
  });

  it('accepts an expiry just under 30 days, in any offset', async () => {
    const at = new Date(Date.now() + 30 * DAY - 60_000);
    const link = await newLink({ expiresAt: at.toISOString().replace('Z', '+00:00') });
    expect(Date.parse(link.expiresAt)).toBe(Math.floor(at.getTime() / 1000) * 1000 + (at.getTime() % 1000));
  });

  it.each([
    ['zero amount', { amount: { currencyCode: 'AED', value: 0 } }, 'amount.value'],
    ['unknown action', { action: 'REFUND' }, 'action'],
    ['unknown field', { pan: '4111111111111111' }, ''],
    ['empty description', { description: '  ' }, 'description'],
  ])('refuses %s with 400', async (_name, body, path) => {
    const response = await createPaymentLink(m.outletId, token, linkBody(body));
    expect(response.status).toBe(400);
    expect(response.body.errors.map((e: { path: string }) => e.path)).toContain(path);
  });

  it('refuses a returnUrl whose origin the merchant has not allowed (422 INVALID_REDIRECT_URL)', async () => {
    for (const returnUrl of ['https://evil.example/back', 'javascript:alert(1)', 'not a url', 'https://user:pw@shop.example.com/']) {
      const response = await createPaymentLink(m.outletId, token, linkBody({ returnUrl }));
      expect(response.status, returnUrl).toBe(422);
      expect(response.body.code).toBe('INVALID_REDIRECT_URL');
    }
  });

  it('a returnUrl on an allowed origin goes to the link, then to its order and the hosted session (the page sends the shopper back)', async () => {
    const shop = await seedMerchant({ redirectOrigins: ['https://shop.example.com'] });
    const created = await createPaymentLink(shop.outletId, token, linkBody({ returnUrl: 'https://SHOP.example.com:443/orders/42' }));
    expect(created.status, created.raw).toBe(201);
    expect(created.body.returnUrl).toBe('https://shop.example.com/orders/42');
    const opened = await openPaymentLink(created.body.linkRef);
    expect(opened.status).toBe(303);
    const { token: sessionToken, orderRef } = await sessionOf(opened);
    expect((await sessionRepository.findByTokenHash(hashSessionToken(sessionToken)))!.returnUrl).toBe('https://shop.example.com/orders/42');
    const order = await invoke(getOrder, {
      path: `/transactions/outlets/${shop.outletId}/orders/${orderRef}`,
      pathParameters: { outletId: shop.outletId, orderRef },
      token,
    });
    expect(order.body.returnUrl).toBe('https://shop.example.com/orders/42');
    // A later open mints a session that carries it too.
    const later = await sessionOf(await openPaymentLink(created.body.linkRef));
    expect((await sessionRepository.findByTokenHash(hashSessionToken(later.token)))!.returnUrl).toBe('https://shop.example.com/orders/42');
  });

  it('a returnUrl the merchant no longer allows when the link is first opened is dropped, not a dead link', async () => {
    const shop = await seedMerchant({ redirectOrigins: ['https://shop.example.com'] });
    const created = await createPaymentLink(shop.outletId, token, linkBody({ returnUrl: 'https://shop.example.com/back' }));
    await onboardAgain(shop, []);
    const opened = await openPaymentLink(created.body.linkRef);
    expect(opened.status).toBe(303);
    const { token: sessionToken } = await sessionOf(opened);
    expect((await sessionRepository.findByTokenHash(hashSessionToken(sessionToken)))!.returnUrl).toBeUndefined();
  });

  it('answers a retried create with the same Idempotency-Key with the same link', async () => {
    const key = uniqueRef('idem');
    const first = await createPaymentLink(m.outletId, token, linkBody(), { 'idempotency-key': key });
    const again = await createPaymentLink(m.outletId, token, linkBody(), { 'idempotency-key': key });
    expect(again.status).toBe(201);
    expect(again.headers['Idempotent-Replayed']).toBe('true');
    expect(again.body.linkRef).toBe(first.body.linkRef);
  });
});

describe('4.14 gating and scope', () => {
  it('refuses to create a link while the tenant has Click to Pay off (403 CLICK_TO_PAY_NOT_ENABLED), and allows it again once on', async () => {
    const off = await seedMerchant();
    await setTenant(off.tenantRef, { CLICK_TO_PAY: { enabled: false } });
    const refused = await createPaymentLink(off.outletId, token, linkBody());
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('CLICK_TO_PAY_NOT_ENABLED');
    await setTenant(off.tenantRef, { CLICK_TO_PAY: { enabled: true } });
    expect((await createPaymentLink(off.outletId, token, linkBody())).status).toBe(201);
  });

  it('answers 404 for another tenant’s link, another outlet’s path and an unknown link — never 403', async () => {
    const link = await newLink();
    const stranger = await tenantToken({ tenantRef: uniqueRef('t') });
    const otherOutlet = await tenantToken({ tenantRef: m.tenantRef, outletIds: [m.otherOutletId] });
    for (const bearer of [stranger, otherOutlet]) {
      expect((await readPaymentLink(m.outletId, link.linkRef, bearer)).status).toBe(404);
      expect((await cancelPaymentLink(m.outletId, link.linkRef, bearer)).status).toBe(404);
      expect((await createPaymentLink(m.outletId, bearer, linkBody())).status).toBe(404);
    }
    expect((await readPaymentLink(m.otherOutletId, link.linkRef, token)).status).toBe(404);
    expect((await readPaymentLink(m.outletId, 'pl_AAAAAAAAAAAAAAAAAAAAAA', token)).status).toBe(404);
    expect((await readPaymentLink(m.outletId, link.linkRef, await tenantToken({ tenantRef: m.tenantRef }))).status).toBe(200);
    expect((await readPaymentLink(m.outletId, 'not-a-link', token)).status).toBe(400);
  });

  it('needs CREATE_ORDER to create and cancel, VIEW_ORDER to read (403 PERMISSION_DENIED)', async () => {
    const link = await newLink();
    const viewer = await tenantToken({ tenantRef: m.tenantRef, permissions: ['VIEW_ORDER'] });
    const creator = await tenantToken({ tenantRef: m.tenantRef, permissions: ['CREATE_ORDER'] });
    expect((await createPaymentLink(m.outletId, viewer, linkBody())).body.code).toBe('PERMISSION_DENIED');
    expect((await cancelPaymentLink(m.outletId, link.linkRef, viewer)).body.code).toBe('PERMISSION_DENIED');
    expect((await readPaymentLink(m.outletId, link.linkRef, creator)).body.code).toBe('PERMISSION_DENIED');
    expect((await readPaymentLink(m.outletId, link.linkRef, viewer)).status).toBe(200);
    expect((await readPaymentLink(m.outletId, link.linkRef, '')).status).toBe(401);
  });
});

describe('4.14 states', () => {
  it('EXPIRED once expiresAt passes (read lazily); an expired link neither opens (410 page) nor cancels (409)', async () => {
    const link = await newLink({ expiresAt: new Date(Date.now() + 1_500).toISOString() });
    expect((await readPaymentLink(m.outletId, link.linkRef, token)).body.state).toBe('ACTIVE');
    await sleep(Math.max(0, Date.parse(link.expiresAt) - Date.now()) + 100);
    expect((await readPaymentLink(m.outletId, link.linkRef, token)).body.state).toBe('EXPIRED');
    const page = await openPaymentLink(link.linkRef);
    expect(page.status).toBe(410);
    expect(page.raw).toContain('This payment link has expired');
    const cancel = await cancelPaymentLink(m.outletId, link.linkRef, token);
    expect(cancel.status).toBe(409);
    expect(cancel.body.code).toBe('PAYMENT_STATE_CONFLICT');
  });

  it('CANCELLED only from ACTIVE: a second cancel is 409, and the link no longer opens (410 page)', async () => {
    const link = await newLink();
    const cancelled = await cancelPaymentLink(m.outletId, link.linkRef, token);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.state).toBe('CANCELLED');
    expect(paymentLinkResource.safeParse(cancelled.body).success).toBe(true);
    expect((await cancelPaymentLink(m.outletId, link.linkRef, token)).status).toBe(409);
    expect((await readPaymentLink(m.outletId, link.linkRef, token)).body.state).toBe('CANCELLED');
    const page = await openPaymentLink(link.linkRef);
    expect(page.status).toBe(410);
    expect(page.raw).toContain('This payment link is no longer available');
  });

  it('a cancel retried with the same Idempotency-Key answers its 200 again (replayed), not a 409', async () => {
    const link = await newLink();
    const key = uniqueRef('cancel');
    const first = await cancelPaymentLink(m.outletId, link.linkRef, token, { 'idempotency-key': key });
    const retried = await cancelPaymentLink(m.outletId, link.linkRef, token, { 'idempotency-key': key });
    expect([first.status, retried.status]).toEqual([200, 200]);
    expect(retried.headers['Idempotent-Replayed']).toBe('true');
    expect(retried.body).toEqual(first.body);
  });

  it('concurrent cancels: exactly one 200, the others 409', async () => {
    const link = await newLink();
    const answers = await Promise.all(Array.from({ length: 5 }, () => cancelPaymentLink(m.outletId, link.linkRef, token)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409]);
  });

  it('PAID once its order is authorised: GET says PAID with the orderRef, it no longer opens (410), cancel is 409', async () => {
    const link = await newLink();
    const { orderRef } = await payLink(link.linkRef);
    const read = await readPaymentLink(m.outletId, link.linkRef, token);
    expect(read.body).toMatchObject({ state: 'PAID', orderRef });
    const page = await openPaymentLink(link.linkRef);
    expect(page.status).toBe(410);
    expect(page.raw).toContain('already been paid');
    expect((await cancelPaymentLink(m.outletId, link.linkRef, token)).status).toBe(409);
  });
});

describe('GET /pay/{linkRef}', () => {
  it('an active link: 303 to a fresh hosted checkout for the link’s order, the same order on every open', async () => {
    const link = await newLink({ merchantOrderReference: 'LINK-1' });
    const first = await openPaymentLink(link.linkRef);
    expect(first.status).toBe(303);
    expect(first.headers.Location).toMatch(/^https:\/\/pay\.test\.example\/checkout\?session=hs_/);
    expect(first.headers['Cache-Control']).toBe('no-store');
    expect(first.headers['Referrer-Policy']).toBe('no-referrer');
    const second = await openPaymentLink(link.linkRef);
    const [a, b] = [await sessionOf(first), await sessionOf(second)];
    expect(a.token).not.toBe(b.token);
    expect(a.orderRef).toBe(b.orderRef);
    expect((await readPaymentLink(m.outletId, link.linkRef, token)).body).toMatchObject({ state: 'ACTIVE', orderRef: a.orderRef });
    const order = await invoke(getOrder, {
      path: `/transactions/outlets/${m.outletId}/orders/${a.orderRef}`,
      pathParameters: { outletId: m.outletId, orderRef: a.orderRef },
      token,
    });
    expect(order.body).toMatchObject({ action: 'AUTH', amount: { currencyCode: 'AED', value: 2500 }, merchantOrderReference: 'LINK-1', state: 'STARTED' });
  });

  it('concurrent first opens: every shopper lands on the one order the link keeps', async () => {
    const link = await newLink();
    const opens = await Promise.all(Array.from({ length: 8 }, () => openPaymentLink(link.linkRef)));
    expect(opens.map((o) => o.status)).toEqual(Array(8).fill(303));
    const orders = new Set(await Promise.all(opens.map(async (o) => (await sessionOf(o)).orderRef)));
    expect(orders.size).toBe(1);
    expect((await readPaymentLink(m.outletId, link.linkRef, token)).body.orderRef).toBe([...orders][0]);
  });

  it('the open that loses the attach (it read the link before the winner wrote) sends its shopper to the winner’s order', async () => {
    const link = await newLink();
    const stale = await paymentLinkRepository.get(link.linkRef); // as a second open read it, before any order
    const winner = await sessionOf(await openPaymentLink(link.linkRef));
    const attach = vi.spyOn(paymentLinkRepository, 'attachOrder');
    vi.spyOn(paymentLinkRepository, 'get').mockResolvedValueOnce(stale);
    try {
      const loser = await sessionOf(await openPaymentLink(link.linkRef));
      expect(attach).toHaveBeenCalledTimes(1);
      await expect(attach.mock.results[0]!.value).rejects.toThrow('conditional write failed');
      expect(attach.mock.calls[0]![1]).not.toBe(winner.orderRef); // it did make an order of its own…
      expect(loser.orderRef).toBe(winner.orderRef); // …and still sent its shopper to the winner's
    } finally {
      vi.restoreAllMocks();
    }
    expect((await readPaymentLink(m.outletId, link.linkRef, token)).body.orderRef).toBe(winner.orderRef);
  });

  it('a link whose payment was declined opens again on the same order (another card), and once the order failed for good shows a 410 page, never a second order', async () => {
    const link = await newLink({ amount: { currencyCode: 'AED', value: 1051 } });
    const session = await sessionOf(await openPaymentLink(link.linkRef));
    const order = await invoke(getOrder, {
      path: `/transactions/outlets/${m.outletId}/orders/${session.orderRef}`,
      pathParameters: { outletId: m.outletId, orderRef: session.orderRef },
      token: session.token,
    });
    const paymentRef = order.body.payments[0].paymentRef as string;
    const declined = await pay({ outletId: m.outletId, orderRef: session.orderRef, paymentRef }, session.token, await checkoutResponse());
    expect(declined.body).toMatchObject({ state: 'FAILED', failure: { code: 'INSUFFICIENT_FUNDS' } });
    const again = await openPaymentLink(link.linkRef); // a retryable decline: the page offers another card on the same order
    expect(again.status).toBe(303);
    expect((await sessionOf(again)).orderRef).toBe(session.orderRef);
    // The acquirer's answer had been final (a code no other card fixes): the link cannot be paid any more.
    await documentClient.send(
      new UpdateCommand({
        TableName: serviceConfig.ORDERS_TABLE,
        Key: { pk: `ORDER#${session.orderRef}`, sk: `PAYMENT#${paymentRef}` },
        UpdateExpression: 'SET failure = :failure',
        ExpressionAttributeValues: { ':failure': { code: 'LOST_CARD', reason: 'Lost card' } },
      }),
    );
    const page = await openPaymentLink(link.linkRef);
    expect(page.status).toBe(410);
    expect(page.raw).toContain('can no longer be used');
    expect((await readPaymentLink(m.outletId, link.linkRef, token)).body).toMatchObject({ state: 'ACTIVE', orderRef: session.orderRef });
  });

  it('a link whose tenant switched Click to Pay off since does not open (403 page), and opens again once it is back on', async () => {
    const later = await seedMerchant();
    const link = await newLink({}, later);
    await setTenant(later.tenantRef, { CLICK_TO_PAY: { enabled: false } });
    const page = await openPaymentLink(link.linkRef);
    expect(page.status).toBe(403);
    expect(page.raw).toContain('cannot be paid right now');
    expect((await readPaymentLink(later.outletId, link.linkRef, token)).body.orderRef).toBeUndefined(); // no order was made
    await setTenant(later.tenantRef, { CLICK_TO_PAY: { enabled: true } });
    expect((await openPaymentLink(link.linkRef)).status).toBe(303);
  });

  it('a link whose outlet the merchant no longer has (re-onboarded without it) is inactive: a 410 page, no order', async () => {
    const later = await seedMerchant();
    const link = await newLink({}, later);
    await onboardDemoMerchant(later.merchantRef, later.tenantRef, [later.otherOutletId]);
    const page = await openPaymentLink(link.linkRef);
    expect(page.status).toBe(410);
    expect(page.headers['Content-Type']).toBe('text/html; charset=utf-8');
    expect(page.raw).toContain('can no longer be used');
    expect((await readPaymentLink(later.outletId, link.linkRef, token)).body.orderRef).toBeUndefined();
  });

  it('DynamoDB unavailable: a 503 HTML page with Retry-After, never JSON or a stack', async () => {
    const link = await newLink();
    vi.spyOn(paymentLinkRepository, 'get').mockRejectedValueOnce(
      new DependencyUnavailableError(undefined, { cause: new Error('ThrottlingException: secret detail') }),
    );
    try {
      const page = await openPaymentLink(link.linkRef);
      expect(page.status).toBe(503);
      expect(page.headers['Retry-After']).toBe('5');
      expect(page.headers['Content-Type']).toBe('text/html; charset=utf-8');
      expect(page.raw).toContain('temporarily unavailable');
      expect(page.raw).not.toContain('secret detail');
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('an unknown or malformed link: a 404 HTML page, looked up or not', async () => {
    for (const ref of ['pl_AAAAAAAAAAAAAAAAAAAAAA', 'nope', '..%2Fcheckout']) {
      const page = await openPaymentLink(ref);
      expect(page.status, ref).toBe(404);
      expect(page.headers['Content-Type']).toBe('text/html; charset=utf-8');
      expect(page.raw).toContain('Payment link not found');
    }
  });

  it('inactive-link pages are HTML with the checkout page’s security headers, a CSP allowing only their own style, and no script', async () => {
    const link = await newLink();
    await cancelPaymentLink(m.outletId, link.linkRef, token);
    const page = await openPaymentLink(link.linkRef);
    expect(page.status).toBe(410);
    expect(page.headers).toMatchObject({
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'X-Frame-Options': 'DENY',
      'Content-Security-Policy': LINK_PAGE_CSP,
    });
    expect(page.raw).toMatch(/^<!doctype html>/);
    expect(page.raw).not.toMatch(/<script|\son[a-z]+=/i);
    expect(() => JSON.parse(page.raw)).toThrow();
    const style = /<style>([\s\S]*?)<\/style>/.exec(page.raw)![1]!;
    expect(LINK_PAGE_CSP).toContain(`style-src 'sha256-${createHash('sha256').update(style).digest('base64')}'`);
    expect(LINK_PAGE_CSP).toContain("default-src 'none'");
  });
});
