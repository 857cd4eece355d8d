import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VISA_ASSIGNED_KID } from './fakes/fake-network-server.js';
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
  signInByMobile,
  text,
  waitForStep,
} from './support.js';

/**
 * The hosted page for PRODUCTION merchants, with the network SDK adapters (web/src/sdk/visa-sdk.ts,
 * mastercard-sdk.ts) driving fakes of Visa's VSDK and Mastercard's MastercardCheckoutServices
 * (test/e2e/fakes/), each served from its own loopback origin. The fakes sign with throw-away
 * "production network" keys the stack trusts (NETWORK_JWKS_URLS) and encrypt to the service's
 * 4.2 key; production merchants reach the sandbox acquirer here (PRODUCTION_ACQUIRER=sandbox,
 * test/e2e/global-setup.ts), so a checkout ends AUTHORISED.
 *
 * Fake test data (test/e2e/fakes/fake-network-state.ts): consumer c2p.shopper@example.com /
 * +971 50 000 0009, one-time code 246810; Visa fake card Visa ••1111, Mastercard fake card
 * Mastercard ••4444.
 */
interface FakeOrigins {
  visa: { origin: string; sdkUrl: string; cardKeyUrl: string };
  mastercard: { origin: string; sdkUrl: string; cardKeyUrl: string };
}
const fakes = (): FakeOrigins => JSON.parse(process.env.E2E_FAKE_NETWORKS ?? '{}') as FakeOrigins;

const EMAIL = 'c2p.shopper@example.com';
const OTP = '246810';
const MERCHANTS = {
  visa: { merchantRef: 'prod-visa-merchant', outletId: 'prod-visa-outlet', cardBrands: ['visa'] },
  mastercard: { merchantRef: 'prod-mc-merchant', outletId: 'prod-mc-outlet', cardBrands: ['mastercard'] },
} as const;

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
  // Two production merchants of the demo tenant (4.7), one per network.
  for (const [network, merchant] of Object.entries(MERCHANTS)) {
    const put = await api('PUT', `/config/merchants/${merchant.merchantRef}/configs/vctp`, e2e().tokens.platform, {
      tenantRef: e2e().tenantRef,
      dpaId: `prod-${network}-dpa`,
      dpaClientId: `prod-${network}-client`,
      dpaName: network === 'visa' ? 'Visa Prod Shop' : 'Mastercard Prod Shop',
      cardBrands: merchant.cardBrands,
      locale: 'en_AE',
      environment: 'production',
      threeDsPolicy: 'risk-based',
      outlets: [merchant.outletId],
      // The sandbox acquirer, which this stack lets production merchants use (PRODUCTION_ACQUIRER=sandbox).
      processor: { name: 'sandbox' },
    });
    expect(put.status, `onboard ${network} merchant`).toBeLessThan(300);
  }
});

afterAll(async () => {
  await browser?.close();
});

/** Records CSP violations (the DOM event) and CSP console errors from the page's first script on. */
async function watchCsp(page: Page): Promise<() => Promise<string[]>> {
  const console: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) console.push(message.text());
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __csp: string[] }).__csp = seen;
    document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
  return async () => [...console, ...(await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []))];
}

function requestsTo(page: Page, origin: string): Request[] {
  const seen: Request[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith(origin)) seen.push(request);
  });
  return seen;
}

async function signIn(page: Page, how: 'email' | 'mobile'): Promise<void> {
  if (how === 'email') await signInByEmail(page, EMAIL);
  else await signInByMobile(page, '+971 50 000 0009');
  // A wrong code first: the network's CODE_INVALID reaches the shopper as a retryable message.
  await enterOtp(page, '000000');
  await page.getByText(/Please try again|attempts? left/).waitFor();
  await page.getByLabel('One-time code').fill(OTP);
  await page.getByRole('button', { name: 'Verify code' }).click();
  await waitForStep(page, 'cards');
}

async function addCard(page: Page, pan: string, expiry: string, name: string): Promise<void> {
  await page
    .getByRole('button', { name: /Add a new card|Add a card/ })
    .first()
    .click();
  await waitForStep(page, 'add-card');
  await page.getByLabel('Card number').fill(pan);
  await page.getByLabel('Expiry date').fill(expiry);
  await page.getByLabel('Security code').fill('123');
  await page.getByLabel('Name on card').fill(name);
  await page.getByRole('button', { name: 'Add card' }).click();
  await waitForStep(page, 'cards');
}

/** The DCF: Visa's hosted UI in an iframe over the page, Mastercard's in the window the adapter opened. */
async function payThroughDcf(page: Page, network: 'visa' | 'mastercard', lastFour: string): Promise<void> {
  await page.getByRole('radio', { name: new RegExp(`ending in ${lastFour}`) }).check();
  if (network === 'visa') {
    await page.getByRole('button', { name: /^Pay / }).click();
    const frame = page.frameLocator('iframe[title="Visa Click to Pay"]');
    await frame.getByText(new RegExp(`ending in ${lastFour}`)).waitFor();
    await frame.getByRole('button', { name: 'Continue' }).click();
    return;
  }
  const popup = page.waitForEvent('popup');
  await page.getByRole('button', { name: /^Pay / }).click();
  const dcf = await popup;
  // The adapter opens a blank window at the click; the SDK then sends it to the network's DCF.
  await dcf.waitForURL((url) => url.origin === fakes().mastercard.origin);
  await dcf.getByText(new RegExp(`ending in ${lastFour}`)).waitFor();
  await dcf.getByRole('button', { name: 'Continue' }).click();
}

/** The 4.3 request carried the SDK result unmodified: the network's action code and its JWS. */
function sentCheckout(sentBodies: { url: string; body: string }[]): Record<string, unknown> {
  const sent = sentBodies.find((b) => b.url.endsWith('/click-to-pay'));
  expect(sent, '4.3 was called').toBeDefined();
  return (JSON.parse(sent!.body) as { checkoutResponse: Record<string, unknown> }).checkoutResponse;
}

function jweHeader(compact: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(compact.split('.')[0]!, 'base64url').toString()) as Record<string, unknown>;
}

describe.each(['visa', 'mastercard'] as const)('production merchant with the %s SDK fake', (network) => {
  const merchant = MERCHANTS[network];
  const cardLastFour = network === 'visa' ? '1111' : '4444';

  it(`${network}: identity lookup, one-time code, card list, checkout → 4.3 AUTHORISED, no CSP violation`, async () => {
    const checkout = await createCheckout({ outletId: merchant.outletId, value: 14900 });
    await scenario(browser, `network-${network}-checkout`, async ({ page, sentBodies }) => {
      const violations = await watchCsp(page);
      const toFake = requestsTo(page, fakes()[network].origin);
      await open(page, checkout.checkoutUrl);
      await signIn(page, network === 'visa' ? 'email' : 'mobile');
      expect(await page.getByRole('radio', { name: new RegExp(`${network === 'visa' ? 'Visa' : 'Mastercard'} ending in ${cardLastFour}`) }).count()).toBe(1);
      expect(await text(page)).not.toContain('Test mode'); // a production merchant: no sandbox hints
      await payThroughDcf(page, network, cardLastFour);
      expect(await result(page)).toBe('success');
      await expectNoLeaks(page);

      expect(
        toFake.some((r) => r.url().startsWith(fakes()[network].sdkUrl)),
        'the SDK came from the fake origin',
      ).toBe(true);
      expect(
        sentBodies.some((b) => b.url.includes('/sandbox/')),
        'the sandbox network is never called',
      ).toBe(false);
      const sdkResult = sentCheckout(sentBodies);
      if (network === 'visa') expect(sdkResult).toMatchObject({ actionCode: 'SUCCESS' });
      else expect(sdkResult).toMatchObject({ checkoutActionCode: 'COMPLETE', network: 'mastercard' });
      expect(typeof sdkResult.checkoutResponse).toBe('string');
      // The payload JWE names our key by the network's id for it (Visa's registered, Mastercard's found by trial).
      const signed = JSON.parse(Buffer.from(String(sdkResult.checkoutResponse).split('.')[1]!, 'base64url').toString()) as { encryptedPayload: string };
      const kid = String(jweHeader(signed.encryptedPayload).kid);
      if (network === 'visa') expect(kid).toBe(VISA_ASSIGNED_KID);
      else expect(kid).toMatch(/^[0-9a-f]{64}$/);
      expect(await violations()).toEqual([]);
    });
    const order = await getOrder(checkout);
    expect(order.state).toBe('AUTHORISED');
    expect(order.payments.at(-1)?.paymentMethod).toMatchObject({ brand: network === 'visa' ? 'VISA' : 'MASTERCARD', panLastFour: cardLastFour });
  });

  it(`${network}: a new card is encrypted to the key the network publishes, checked out and AUTHORISED`, async () => {
    const checkout = await createCheckout({ outletId: merchant.outletId, value: 4200 });
    const pan = network === 'visa' ? '4012888888881881' : '5105105105105100';
    await scenario(browser, `network-${network}-new-card`, async ({ page, sentBodies }) => {
      const violations = await watchCsp(page);
      await open(page, checkout.checkoutUrl);
      await signIn(page, 'email');
      await addCard(page, pan, '11/31', 'Nora Example');
      expect(await text(page)).toContain(`Card added: ${network === 'visa' ? 'Visa' : 'Mastercard'} ending in ${pan.slice(-4)}.`);
      await payThroughDcf(page, network, pan.slice(-4));
      expect(await result(page)).toBe('success');
      await expectNoLeaks(page, [pan]);

      // The card reached the network as a JWE to the network's published card key — not to our 4.2 key.
      const prepare = sentBodies.find((b) => b.url.startsWith(fakes()[network].origin) && b.url.endsWith('/api/prepare'));
      expect(prepare, 'the new-card checkout reached the fake').toBeDefined();
      const encryptedCard = (JSON.parse(prepare!.body) as { encryptedCard: string }).encryptedCard;
      expect(encryptedCard.split('.')).toHaveLength(5);
      const published = (await (await fetch(fakes()[network].cardKeyUrl)).json()) as { keys: { kid: string }[] };
      const ours = await api<{ encryptionKeyId: string }>('GET', '/config/configs/vctp/encryption-keys', e2e().tokens.tenant);
      expect(jweHeader(encryptedCard)).toMatchObject({ alg: 'RSA-OAEP-256', kid: published.keys[0]!.kid });
      expect(jweHeader(encryptedCard).kid).not.toBe(ours.body.encryptionKeyId);
      for (const body of sentBodies) expect(body.body.replace(/\D/g, '')).not.toContain(pan);
      expect(await violations()).toEqual([]);
    });
    const order = await getOrder(checkout);
    expect(order.state).toBe('AUTHORISED');
    expect(order.payments.at(-1)?.paymentMethod).toMatchObject({ panLastFour: pan.slice(-4) });
  });
});

describe("leaving the network's DCF", () => {
  it('mastercard: Cancel in the DCF window → back to the card list, nothing charged, then the same card pays', async () => {
    const checkout = await createCheckout({ outletId: MERCHANTS.mastercard.outletId, value: 2500 });
    await scenario(browser, 'network-mastercard-dcf-cancel', async ({ page }) => {
      await open(page, checkout.checkoutUrl);
      await signIn(page, 'email');
      await page.getByRole('radio', { name: /ending in 4444/ }).check();
      const popup = page.waitForEvent('popup');
      await page.getByRole('button', { name: /^Pay / }).click();
      const dcf = await popup;
      await dcf.waitForURL((url) => url.origin === fakes().mastercard.origin);
      await dcf.getByRole('button', { name: 'Cancel' }).click();
      await waitForStep(page, 'cards');
      expect(await text(page)).toContain('Checkout was cancelled');
      expect((await getOrder(checkout)).payments.at(-1)?.state).toBe('STARTED');
      await payThroughDcf(page, 'mastercard', '4444');
      expect(await result(page)).toBe('success');
    });
    expect((await getOrder(checkout)).state).toBe('AUTHORISED');
  });
});

describe('the page CSP with network SDKs configured', () => {
  it('admits exactly the configured SDK origins for scripts, frames and connections, and blocks any other origin', async () => {
    const checkout = await createCheckout({ outletId: MERCHANTS.visa.outletId, value: 1500 });
    await scenario(browser, 'network-sdks-csp', async ({ page }) => {
      const violations = await watchCsp(page);
      const response = await page.goto(checkout.checkoutUrl);
      const csp = response!.headers()['content-security-policy']!;
      const directives = new Map(
        csp
          .split(';')
          .map((part) => part.trim().split(/\s+/))
          .map(([name, ...values]) => [name!, values]),
      );
      const origins = [fakes().visa.origin, fakes().mastercard.origin].sort();
      for (const name of ['script-src', 'connect-src']) {
        expect([...directives.get(name)!].sort(), name).toEqual(["'self'", ...origins].sort());
      }
      // Frames: the SDKs' and the 3DS ACSs' — the sandbox's and the production 3DS Server's (the fake
      // here, THREE_DS_ACS_ORIGINS; `https:` when none is listed) — nothing else (docs/integrating/three-ds.md).
      const acsOrigins = [e2e().local.sandboxAcsBaseUrl, e2e().local.threeDsServer!.acsUrl].map((url) => new URL(url).origin);
      expect([...directives.get('frame-src')!].sort(), 'frame-src').toEqual(["'self'", ...origins, ...acsOrigins].sort());
      expect(directives.get('default-src')).toEqual(["'none'"]);
      await waitForStep(page, 'identity');
      expect(await violations()).toEqual([]);

      // The detector works: a script and a connection to an origin nobody configured are refused.
      await page.evaluate(() => {
        const script = document.createElement('script');
        script.src = 'http://127.0.0.1:9/not-configured.js';
        document.head.appendChild(script);
        void fetch('http://127.0.0.1:9/not-configured').catch(() => undefined);
      });
      await expect
        .poll(violations)
        .toEqual(
          expect.arrayContaining([
            expect.stringMatching(/^script-src(-elem)? http:\/\/127\.0\.0\.1:9/),
            expect.stringMatching(/^connect-src http:\/\/127\.0\.0\.1:9/),
          ]),
        );
    });
  });
});
