import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  chooseCardAndPay,
  e2e,
  enterOtp,
  getOrder,
  launchBrowser,
  open,
  payAndFailChallenge,
  result,
  scenario,
  signInByEmail,
  text,
  waitForStep,
} from './support.js';

/**
 * The hosted payment page (SPEC 4.8): a merchant creates an order with a returnUrl, sends the
 * shopper to its checkoutUrl, and gets them back — with `orderRef` in the query — when the
 * payment ends, or at once through "Back to <shop>" / "Cancel". The shop is a tiny page served
 * by this test on its own loopback port (another origin than the service), onboarded in the
 * merchant's redirectOrigins. Everything stays in one window: no pop-ups (a WebView has none).
 */
let browser: Browser;
let shop: Server;
let shopOrigin: string;
const MERCHANT = 'e2e-return-merchant';
const OUTLET = 'e2e-return-outlet';
const SHOP_NAME = 'Return Shop';
/** AUTO_RETURN_MS of web/src/flow/return-url.ts, and some. */
const AUTO_RETURN_WAIT_MS = 15_000;

beforeAll(async () => {
  browser = await launchBrowser();
  // The shop's landing page shows what it was given: its path and the orderRef to look up.
  shop = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://shop.invalid');
    const escape = (value: string) => value.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    response.end(
      `<!doctype html><title>${SHOP_NAME}</title><h1>Back at ${SHOP_NAME}</h1>` +
        `<p>Page <code id="path">${escape(url.pathname)}</code></p><p>Order <code id="order-ref">${escape(url.searchParams.get('orderRef') ?? '')}</code></p>`,
    );
  });
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  shopOrigin = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;

  const { tokens, tenantRef } = e2e();
  const onboard = await api('PUT', `/config/merchants/${MERCHANT}/configs/vctp`, tokens.platform, {
    tenantRef,
    dpaId: 'e2e-return-dpa',
    dpaClientId: 'e2e-return-client',
    dpaName: SHOP_NAME,
    cardBrands: ['visa', 'mastercard'],
    locale: 'en_AE',
    environment: 'sandbox',
    threeDsPolicy: 'risk-based',
    outlets: [OUTLET],
    redirectOrigins: [shopOrigin],
  });
  expect(onboard.status, JSON.stringify(onboard.body)).toBe(200);
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => shop?.close(resolve));
});

interface HostedOrder {
  orderRef: string;
  outletId: string;
  checkoutUrl: string;
}

/** POST …/orders with a returnUrl (and cancelUrl): the 201 carries the checkoutUrl. */
async function hostedOrder(value: number, urls: { returnUrl: string; cancelUrl?: string }): Promise<HostedOrder> {
  const created = await api<{ orderRef: string; checkoutUrl?: string }>('POST', `/transactions/outlets/${OUTLET}/orders`, e2e().tokens.tenant, {
    action: 'AUTH',
    amount: { currencyCode: 'AED', value },
    ...urls,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect(created.body.checkoutUrl).toMatch(/\/checkout\?session=/);
  return { orderRef: created.body.orderRef, outletId: OUTLET, checkoutUrl: created.body.checkoutUrl! };
}

/** The shopper is on the shop's page at `path`, with the order's ref (and the shop's own query kept). */
async function expectBackAtShop(page: Page, order: HostedOrder, path: string, query = ''): Promise<void> {
  await page.waitForURL((url) => url.origin === shopOrigin, { timeout: AUTO_RETURN_WAIT_MS });
  expect(page.url()).toBe(`${shopOrigin}${path}?${query}orderRef=${order.orderRef}`);
  expect(await page.locator('#order-ref').innerText()).toBe(order.orderRef);
  // Same window all along: nothing was opened beside it.
  expect(page.context().pages()).toHaveLength(1);
}

/** The page before it leaves (the scenario's own screenshot shows where it landed). */
async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${process.env.E2E_RESULTS_DIR}/${name}.png`, fullPage: true });
}

async function signInWithCards(page: Page, order: HostedOrder): Promise<void> {
  await open(page, order.checkoutUrl);
  await signInByEmail(page, 'returning@example.com');
  await enterOtp(page, '123456');
  await waitForStep(page, 'cards');
}

describe('hosted payment page — back to the shop', () => {
  it('pays, shows the result, then lands on the return URL with the orderRef (the shop’s query kept)', async () => {
    const order = await hostedOrder(2200, { returnUrl: `${shopOrigin}/thanks?cart=7`, cancelUrl: `${shopOrigin}/cart` });
    await scenario(browser, 'hpp-pay-and-return', async ({ page }) => {
      await signInWithCards(page, order);
      // The way back is there from the start.
      expect(await page.getByRole('link', { name: `Back to ${SHOP_NAME}` }).isVisible()).toBe(true);
      expect(await page.getByRole('link', { name: 'Cancel' }).isVisible()).toBe(true);
      await chooseCardAndPay(page, '1111');
      expect(await result(page)).toBe('success');
      expect(await text(page)).toContain(`Taking you back to ${SHOP_NAME}`);
      expect(await page.getByRole('link', { name: 'Cancel' }).count()).toBe(0);
      await shot(page, 'hpp-pay-result');
      await expectBackAtShop(page, order, '/thanks', 'cart=7&');
    });
    expect((await getOrder(order)).state).toBe('AUTHORISED');
  });

  it('"Cancel" goes to the cancel URL at once, with the orderRef; nothing is paid', async () => {
    const order = await hostedOrder(2300, { returnUrl: `${shopOrigin}/thanks`, cancelUrl: `${shopOrigin}/cart` });
    await scenario(browser, 'hpp-cancel', async ({ page }) => {
      await open(page, order.checkoutUrl);
      await waitForStep(page, 'identity');
      await page.getByRole('link', { name: 'Cancel' }).click();
      await expectBackAtShop(page, order, '/cart');
    });
    expect((await getOrder(order)).state).toBe('STARTED');
  });

  it('declined, then "Back to <shop>" returns to the return URL with the orderRef', async () => {
    const order = await hostedOrder(2351, { returnUrl: `${shopOrigin}/thanks` });
    await scenario(browser, 'hpp-decline-return', async ({ page }) => {
      await signInWithCards(page, order);
      await chooseCardAndPay(page, '1111');
      expect(await result(page)).toBe('declined');
      expect(await text(page)).toContain('insufficient funds');
      await shot(page, 'hpp-decline-result');
      // Without a cancelUrl, Cancel goes to the returnUrl too; either way the shop gets the orderRef.
      await page
        .getByTestId('back-to-shop')
        .click({ noWaitAfter: true })
        .catch(() => undefined);
      await expectBackAtShop(page, order, '/thanks');
    });
    const paid = await getOrder(order);
    expect(paid.state).toBe('FAILED');
    expect(paid.payments[0]?.failure?.code).toBe('INSUFFICIENT_FUNDS');
  });

  it('3DS failure: the result, "Try another card" (THREE_DS_FAILED is retryable), and Back to <shop> returns with the orderRef', async () => {
    const order = await hostedOrder(2400, { returnUrl: `${shopOrigin}/thanks` });
    await scenario(browser, 'hpp-3ds-failure-return', async ({ page }) => {
      await signInWithCards(page, order);
      await payAndFailChallenge(page);
      await page.getByRole('link', { name: `Back to ${SHOP_NAME}` }).click();
      await expectBackAtShop(page, order, '/thanks');
    });
    expect((await getOrder(order)).payments.at(-1)?.failure?.code).toBe('THREE_DS_FAILED');
  });

  it('the fifth decline is final: no retry offered, the result, then back to the shop by itself', async () => {
    const order = await hostedOrder(2851, { returnUrl: `${shopOrigin}/thanks`, cancelUrl: `${shopOrigin}/cart` });
    await scenario(browser, 'hpp-final-decline-auto-return', async ({ page }) => {
      await signInWithCards(page, order);
      // Amounts ending 51 decline whatever the card; each decline but the fifth may be retried.
      for (let attempt = 1; attempt < 5; attempt++) {
        await chooseCardAndPay(page, '1111');
        expect(await result(page)).toBe('declined');
        await page.getByRole('button', { name: 'Try another card' }).click();
      }
      await chooseCardAndPay(page, '1111');
      expect(await result(page)).toBe('declined');
      expect(await page.getByRole('button', { name: 'Try another card' }).count()).toBe(0);
      expect(await text(page)).toContain(`Taking you back to ${SHOP_NAME}`);
      await expectBackAtShop(page, order, '/thanks');
    });
    const final = await getOrder(order);
    expect(final.state).toBe('FAILED');
    expect(final.payments).toHaveLength(5);
  });

  it('a retryable decline offers "Try another card": a new payment on the same order, paid with another card', async () => {
    const order = await hostedOrder(2500, { returnUrl: `${shopOrigin}/thanks` });
    await scenario(browser, 'hpp-decline-retry', async ({ page }) => {
      await signInWithCards(page, order);
      await chooseCardAndPay(page, '0002');
      expect(await result(page)).toBe('declined');
      expect(await text(page)).toContain('this card has expired');
      await page.getByRole('button', { name: 'Try another card' }).click();
      await waitForStep(page, 'cards');
      expect(await text(page)).toContain('Choose another card to pay for the same order');
      await shot(page, 'hpp-retry-cards');
      await chooseCardAndPay(page, '1111');
      expect(await result(page)).toBe('success');
      await expectBackAtShop(page, order, '/thanks');
    });
    const paid = await getOrder(order);
    expect(paid.state).toBe('AUTHORISED');
    expect(paid.payments.map((p) => p.state)).toEqual(['FAILED', 'AUTHORISED']);
    expect(paid.payments[1]?.paymentMethod?.panLastFour).toBe('1111');
  });

  it('coming back to the page after paying (Back button, reload) shows the final state, not a new checkout', async () => {
    const order = await hostedOrder(2600, { returnUrl: `${shopOrigin}/thanks` });
    await scenario(browser, 'hpp-reload-after-payment', async ({ page }) => {
      await signInWithCards(page, order);
      await chooseCardAndPay(page, '1111');
      expect(await result(page)).toBe('success');
      await expectBackAtShop(page, order, '/thanks');
      await page.goBack();
      expect(await result(page)).toBe('success');
      expect(await text(page)).toContain('This order is already paid');
      await page.reload();
      expect(await result(page)).toBe('success');
      expect(await text(page)).toContain('This order is already paid');
      // Not bounced to the shop again (the shopper came back on purpose); the way back is a link.
      await page.waitForTimeout(AUTO_RETURN_WAIT_MS / 3);
      expect(new URL(page.url()).pathname).toBe('/checkout');
      expect(await page.getByRole('link', { name: `Back to ${SHOP_NAME}` }).isVisible()).toBe(true);
      expect(await page.locator('[data-step="identity"]').count()).toBe(0);
    });
  });

  it('phone-sized (375×667): the whole flow, the way back included, without sideways scrolling', async () => {
    const order = await hostedOrder(2700, { returnUrl: `${shopOrigin}/thanks`, cancelUrl: `${shopOrigin}/cart` });
    await scenario(
      browser,
      'hpp-phone-375x667',
      async ({ page }) => {
        // Against 375 itself: with isMobile the window widens to whatever overflows.
        const expectFits = async (step: string) => expect(await page.evaluate(() => document.documentElement.scrollWidth), step).toBeLessThanOrEqual(375);
        await open(page, order.checkoutUrl);
        await waitForStep(page, 'identity');
        await expectFits('identity');
        await signInByEmail(page, 'returning@example.com');
        await waitForStep(page, 'otp');
        await expectFits('otp');
        await enterOtp(page, '123456');
        await waitForStep(page, 'cards');
        await expectFits('cards');
        const back = await page.getByRole('link', { name: `Back to ${SHOP_NAME}` }).boundingBox();
        expect(back!.x + back!.width).toBeLessThanOrEqual(375);
        await shot(page, 'hpp-phone-cards');
        await chooseCardAndPay(page, '4444');
        expect(await result(page)).toBe('success');
        await expectFits('success');
        await expectBackAtShop(page, order, '/thanks');
      },
      { viewport: { width: 375, height: 667 }, isMobile: true },
    );
    expect((await getOrder(order)).state).toBe('AUTHORISED');
  });
});
