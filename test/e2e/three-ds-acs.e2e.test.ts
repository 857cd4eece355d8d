import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  atWidth,
  chooseCardAndPay,
  createCheckout,
  e2e,
  enterOtp,
  expectNoLeaks,
  getOrder,
  launchBrowser,
  open,
  result,
  scenario,
  screenshot,
  signInByEmail,
  text,
  waitForStep,
  WIDTHS,
  type Scenario,
} from './support.js';

/**
 * The 3DS challenge as EMV 3DS 2.2's browser flow with an ACS on another origin (SPEC 4.10,
 * docs/integrating/three-ds.md): `npm start` serves the sandbox ACS on http://127.0.0.1:<its own
 * port> while the page is http://localhost:<PORT>. The page form-POSTs the creq into the
 * challenge frame, the ACS form-POSTs the cres to the notification URL, whose page hands it
 * to the checkout, which calls 4.10.
 */
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const ACS_PATH = '/sandbox/3ds/challenge';
const FRAME = 'iframe[title="Verification by your card issuer"]';

/** Signs the returning consumer in and pays with the card that steps up (Visa ••3220, ECI 07). */
async function reachChallenge(page: Page, checkoutUrl: string): Promise<void> {
  await open(page, checkoutUrl);
  await signInByEmail(page, 'returning@example.com');
  await enterOtp(page, '123456');
  await chooseCardAndPay(page, '3220');
  await waitForStep(page, 'three-ds', 60_000);
  await page.frameLocator(FRAME).getByLabel('Verification code').waitFor();
}

/** The challenge frame is the ACS's, on another origin than the page; what was posted where. */
async function expectCrossOriginChallenge(s: Scenario, screenshot: string): Promise<void> {
  const pageOrigin = new URL(s.page.url()).origin;
  const acsFrame = s.page.frames().find((frame) => new URL(frame.url()).pathname === ACS_PATH);
  expect(acsFrame, 'the ACS frame').toBeDefined();
  const acsOrigin = new URL(acsFrame!.url()).origin;
  expect(acsOrigin).not.toBe(pageOrigin);
  expect(acsOrigin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  // The creq went there by a form POST (not in a URL), with the page's session data and no token.
  const creqPost = s.sentBodies.find((sent) => sent.url === `${acsOrigin}${ACS_PATH}` && sent.body.startsWith('creq='));
  expect(creqPost, 'the creq form POST').toBeDefined();
  const fields = new URLSearchParams(creqPost!.body);
  expect(fields.get('creq')).toMatch(/^[A-Za-z0-9_-]+$/);
  expect(fields.get('threeDSSessionData')).toMatch(/^[A-Za-z0-9_-]{16,}$/);
  expect(creqPost!.body).not.toMatch(/hs_|session=/);
  expect(acsFrame!.url()).not.toContain('creq=');
  await s.page.screenshot({ path: join(process.env.E2E_RESULTS_DIR ?? 'test-results/e2e', `${screenshot}.png`), fullPage: true });
}

/** The ACS form-POSTed the cres to the service's notification URL. */
function expectNotification(s: Scenario): void {
  const notified = s.sentBodies.find((sent) => sent.url === `${e2e().baseUrl}/checkout/3ds-notification`);
  expect(notified, 'the cres form POST to the notification URL').toBeDefined();
  expect(new URLSearchParams(notified!.body).get('cres')).toMatch(/^[A-Za-z0-9_-]+$/);
}

/** CSP refusals show up as console errors: none may happen on the way. */
function watchCsp(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

describe('3DS challenge with the ACS on another origin (EMV 3DS 2.2 browser flow)', () => {
  it.each(WIDTHS)(
    'the challenge frame has focus once the ACS page has loaded: the code is typed without a click, and the page says where to type it (%i px)',
    async (width) => {
      const checkout = await createCheckout({ value: 5510 });
      await scenario(
        browser,
        `three-ds-acs-focus-${width}`,
        async (s) => {
          await reachChallenge(s.page, checkout.checkoutUrl);
          const hint = s.page.getByTestId('challenge-hint');
          expect(await hint.isVisible()).toBe(true);
          expect(await hint.innerText()).toContain('select the code field');
          // The page focused the frame element (a parent may; autofocus in a cross-origin frame is
          // ignored), and the ACS's field took the cursor when its window got focus.
          await s.page.waitForFunction((title) => document.activeElement?.getAttribute('title') === title, 'Verification by your card issuer');
          const acsFrame = s.page.frames().find((frame) => new URL(frame.url()).pathname === ACS_PATH)!;
          expect(new URL(acsFrame.url()).origin).not.toBe(new URL(s.page.url()).origin);
          await acsFrame.waitForFunction(() => document.activeElement?.id === 'code');
          await screenshot(s.page, `three-ds-acs-focus-challenge-${width}`);
          await s.page.keyboard.type('1234');
          await s.page.keyboard.press('Enter');
          expect(await result(s.page)).toBe('success');
        },
        atWidth(width),
      );
      expect((await getOrder(checkout)).state).toBe('AUTHORISED');
    },
  );

  it('ACS on another origin, code 1234 → AUTHORISED', async () => {
    const checkout = await createCheckout({ value: 5310 });
    await scenario(browser, 'three-ds-acs-authorised', async (s) => {
      const violations = watchCsp(s.page);
      await reachChallenge(s.page, checkout.checkoutUrl);
      await expectCrossOriginChallenge(s, 'three-ds-acs-challenge');
      const frame = s.page.frameLocator(FRAME);
      await frame.getByLabel('Verification code').fill('1234');
      await frame.getByRole('button', { name: 'Verify' }).click();
      expect(await result(s.page)).toBe('success');
      expect(await text(s.page)).toMatch(/Visa •••• 3220/);
      expectNotification(s);
      expect(violations).toEqual([]);
      await expectNoLeaks(s.page);
    });
    const order = await getOrder(checkout);
    expect(order.state).toBe('AUTHORISED');
  });

  it('ACS on another origin, a wrong code → FAILED THREE_DS_FAILED', async () => {
    const checkout = await createCheckout({ value: 5410 });
    await scenario(browser, 'three-ds-acs-failed', async (s) => {
      const violations = watchCsp(s.page);
      await reachChallenge(s.page, checkout.checkoutUrl);
      await expectCrossOriginChallenge(s, 'three-ds-acs-challenge-failing');
      const frame = s.page.frameLocator(FRAME);
      await frame.getByLabel('Verification code').fill('9999');
      await frame.getByRole('button', { name: 'Verify' }).click();
      expect(await result(s.page)).toBe('declined');
      expect(await text(s.page)).toContain('Your bank couldn’t verify this payment');
      expectNotification(s);
      expect(violations).toEqual([]);
      await expectNoLeaks(s.page);
    });
    const order = await getOrder(checkout);
    expect(order.state).toBe('FAILED');
    expect(order.payments[0]?.failure?.code).toBe('THREE_DS_FAILED');
  });
});
