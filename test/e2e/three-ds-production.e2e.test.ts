import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  createCheckout,
  e2e,
  enterOtp,
  expectNoLeaks,
  getOrder,
  launchBrowser,
  open,
  result,
  scenario,
  signInByEmail,
  text,
  waitForStep,
} from './support.js';

/**
 * A PRODUCTION merchant's step-up through the hosted page (SPEC 4.3, 4.10, 4.17): the page drives
 * the fake Visa network's SDK (test/e2e/fakes), sends browserInfo with 4.3, runs the 3DS Method in
 * a hidden iframe and the challenge in a frame of the window size it chose, against the fake 3DS
 * Server + DS + ACS (test/fakes/three-ds-server) that `npm start` runs with
 * LOCAL_THREE_DS_SERVER=fake — its API key read the production way, from a secret by ARN. The
 * authorization goes to the sandbox acquirer (PRODUCTION_ACQUIRER=sandbox, test/e2e/global-setup.ts).
 *
 * Test cards of the fake Visa network (ECI 07, so the merchant's risk-based policy steps up),
 * named by their last four digits, which their network tokens share — the fake 3DS Server's
 * decision codes: ••0000 3DS Method then frictionless, ••0200 a 3DS Method that never completes
 * (the page says N after 10 s) then frictionless, ••0172 challenge (code 1234), ••0110 refused (N).
 */
const MERCHANT = 'prod-3ds-merchant';
const OUTLET = 'prod-3ds-outlet';
const EMAIL = 'c2p.shopper@example.com';
const OTP = '246810';
const DESKTOP = { viewport: { width: 1280, height: 900 } };
const PHONE = { viewport: { width: 375, height: 812 }, isMobile: true };

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
  const onboarded = await api('PUT', `/config/merchants/${MERCHANT}/configs/vctp`, e2e().tokens.platform, {
    tenantRef: e2e().tenantRef,
    dpaId: 'prod-3ds-dpa',
    dpaClientId: 'prod-3ds-client',
    dpaName: '3DS Shop',
    cardBrands: ['visa'],
    locale: 'en_AE',
    environment: 'production',
    threeDsPolicy: 'risk-based',
    outlets: [OUTLET],
    // Authorized by the sandbox acquirer: the browser suite runs with PRODUCTION_ACQUIRER=sandbox.
    processor: { name: 'sandbox' },
    threeDsRequestor: {
      requestorUrl: 'https://shop.example.com',
      merchantName: '3DS Shop',
      merchantCountryCode: '784',
      mcc: '5411',
      brands: {
        visa: {
          requestorId: 'VISA-REQ-0001',
          requestorName: 'Demo Gateway',
          acquirerBin: '438309',
          acquirerMerchantId: '00002000000',
          acquirerCountryCode: '784',
        },
      },
    },
  });
  expect(onboarded.status, 'onboard the production 3DS merchant').toBe(200);
});

afterAll(async () => {
  await browser?.close();
});

/** CSP violations the page reports (the DOM event), from its first script on. */
async function watchCsp(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __csp: string[] }).__csp = seen;
    document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
  return () => page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []);
}

/** Signs in with the fake Visa network and pays with the card ending in `lastFour` through Visa's DCF frame. */
async function payWith(page: Page, lastFour: string): Promise<void> {
  await signInByEmail(page, EMAIL);
  await enterOtp(page, OTP);
  await waitForStep(page, 'cards');
  await page.getByRole('radio', { name: new RegExp(`ending in ${lastFour}`) }).check();
  await page.getByRole('button', { name: /^Pay / }).click();
  const dcf = page.frameLocator('iframe[title="Visa Click to Pay"]');
  await dcf.getByText(new RegExp(`ending in ${lastFour}`)).waitFor();
  await dcf.getByRole('button', { name: 'Continue' }).click();
}

/** What the page sent with 4.3 (and 4.10): browserInfo with the window size it chose. */
function browserInfoSent(sentBodies: { url: string; body: string }[], path: string): Record<string, unknown> {
  const sent = sentBodies.filter((b) => new URL(b.url).pathname.endsWith(path)).at(-1);
  expect(sent, `${path} was called`).toBeDefined();
  return (JSON.parse(sent!.body) as { browserInfo: Record<string, unknown> }).browserInfo;
}

async function challengeFrame(page: Page) {
  const frame = page.locator('iframe[title="Verification by your card issuer"]');
  await frame.waitFor();
  const issuer = page.frameLocator('iframe[title="Verification by your card issuer"]');
  await issuer.getByLabel('One-time code').waitFor({ timeout: 30_000 });
  return { frame, issuer, box: (await frame.boundingBox())!, size: await frame.getAttribute('data-window-size') };
}

describe('production step-up through the 3DS Server, desktop', () => {
  it('3DS Method in a hidden iframe, then frictionless: AUTHORISED, no challenge shown, no CSP violation', async () => {
    const checkout = await createCheckout({ outletId: OUTLET, value: 14900 });
    await scenario(
      browser,
      'three-ds-production-frictionless-desktop',
      async ({ page, sentBodies }) => {
        const violations = await watchCsp(page);
        await open(page, checkout.checkoutUrl);
        await payWith(page, '0000');
        expect(await result(page)).toBe('success');
        const info = browserInfoSent(sentBodies, '/click-to-pay');
        expect(info).toMatchObject({ challengeWindowSize: '02', javaEnabled: false, acceptHeader: expect.stringContaining('text/html') });
        expect(browserInfoSent(sentBodies, '/3ds')).toMatchObject({ challengeWindowSize: '02' });
        const continued = sentBodies.find((b) => new URL(b.url).pathname.endsWith('/3ds'));
        expect(JSON.parse(continued!.body)).toMatchObject({ threeDSCompInd: 'Y' }); // the method's page reported back in time
        // The method ran at the ACS (another origin) and came back through our notification URL.
        expect(sentBodies.some((b) => b.url.startsWith(new URL(e2e().local.threeDsServer!.acsUrl).origin) && b.body.startsWith('threeDSMethodData='))).toBe(
          true,
        );
        expect(await page.locator('iframe[title="Verification by your card issuer"]').count()).toBe(0);
        await expectNoLeaks(page);
        expect(await violations()).toEqual([]);
      },
      DESKTOP,
    );
    const order = await getOrder(checkout);
    expect(order.state).toBe('AUTHORISED');
  });

  it('a 3DS Method that never completes: the page gives up after 10 s, says N, and the payment is still authorised', async () => {
    const checkout = await createCheckout({ outletId: OUTLET, value: 2300 });
    await scenario(
      browser,
      'three-ds-production-method-timeout-desktop',
      async ({ page, sentBodies }) => {
        await open(page, checkout.checkoutUrl);
        const started = Date.now();
        await payWith(page, '0200');
        await page.locator('[data-three-ds-step="method"]').waitFor();
        expect(await result(page, 40_000)).toBe('success');
        expect(Date.now() - started).toBeGreaterThan(10_000);
        const continued = sentBodies.find((b) => new URL(b.url).pathname.endsWith('/3ds'));
        expect(JSON.parse(continued!.body)).toMatchObject({ threeDSCompInd: 'N' });
      },
      DESKTOP,
    );
    expect((await getOrder(checkout)).state).toBe('AUTHORISED');
  });

  it('challenge in a 390×400 frame (window size 02: the widest the desktop panel has room for); a wrong code → FAILED THREE_DS_FAILED', async () => {
    const checkout = await createCheckout({ outletId: OUTLET, value: 5600 });
    await scenario(
      browser,
      'three-ds-production-challenge-failed-desktop',
      async ({ page }) => {
        const violations = await watchCsp(page);
        await open(page, checkout.checkoutUrl);
        await payWith(page, '0172');
        await waitForStep(page, 'three-ds', 60_000);
        const { issuer, box, size } = await challengeFrame(page);
        expect(size).toBe('02');
        expect([Math.round(box.width), Math.round(box.height)]).toEqual([390, 400]);
        await page.screenshot({ path: `${process.env.E2E_RESULTS_DIR}/three-ds-production-challenge-desktop.png`, fullPage: true });
        await issuer.getByLabel('One-time code').fill('0000');
        await issuer.getByRole('button', { name: 'Confirm' }).click();
        expect(await result(page)).toBe('declined');
        expect(await text(page)).toContain('Your bank couldn’t verify this payment');
        expect(await page.getByRole('button', { name: 'Try another card' }).isVisible()).toBe(true); // THREE_DS_FAILED is retryable
        expect(await violations()).toEqual([]);
      },
      DESKTOP,
    );
    const order = await getOrder(checkout);
    expect(order.payments.at(-1)).toMatchObject({ state: 'FAILED', failure: { code: 'THREE_DS_FAILED' } });
  });
});

describe('production step-up through the 3DS Server, 375 px phone', () => {
  it('challenge full width (window size 05); the right code → AUTHORISED', async () => {
    const checkout = await createCheckout({ outletId: OUTLET, value: 7800 });
    await scenario(
      browser,
      'three-ds-production-challenge-authorised-375',
      async ({ page, sentBodies }) => {
        const violations = await watchCsp(page);
        await open(page, checkout.checkoutUrl);
        await payWith(page, '0172');
        await waitForStep(page, 'three-ds', 60_000);
        expect(browserInfoSent(sentBodies, '/click-to-pay')).toMatchObject({ challengeWindowSize: '05', screenWidth: 375 });
        const { issuer, box, size } = await challengeFrame(page);
        expect(size).toBe('05');
        expect(box.width).toBeGreaterThan(300); // the step's whole width
        expect(box.x + box.width).toBeLessThanOrEqual(375);
        await page.screenshot({ path: `${process.env.E2E_RESULTS_DIR}/three-ds-production-challenge-375.png`, fullPage: true });
        await issuer.getByLabel('One-time code').fill('1234');
        await issuer.getByRole('button', { name: 'Confirm' }).click();
        expect(await result(page)).toBe('success');
        expect(await violations()).toEqual([]);
      },
      PHONE,
    );
    expect((await getOrder(checkout)).state).toBe('AUTHORISED');
  });

  it('refused by the issuer (ARes N): FAILED THREE_DS_FAILED at once, no challenge', async () => {
    const checkout = await createCheckout({ outletId: OUTLET, value: 3100 });
    await scenario(
      browser,
      'three-ds-production-refused-375',
      async ({ page }) => {
        await open(page, checkout.checkoutUrl);
        await payWith(page, '0110');
        expect(await result(page)).toBe('declined');
        expect(await page.locator('iframe[title="Verification by your card issuer"]').count()).toBe(0);
      },
      PHONE,
    );
    expect((await getOrder(checkout)).payments.at(-1)).toMatchObject({ state: 'FAILED', failure: { code: 'THREE_DS_FAILED' } });
  });

  it('frictionless after the 3DS Method on a phone: AUTHORISED', async () => {
    const checkout = await createCheckout({ outletId: OUTLET, value: 4400 });
    await scenario(
      browser,
      'three-ds-production-frictionless-375',
      async ({ page }) => {
        await open(page, checkout.checkoutUrl);
        await payWith(page, '0000');
        expect(await result(page)).toBe('success');
      },
      PHONE,
    );
    expect((await getOrder(checkout)).state).toBe('AUTHORISED');
  });
});
