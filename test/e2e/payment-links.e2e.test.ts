import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, chooseCardAndPay, e2e, enterOtp, expectNoLeaks, launchBrowser, open, result, scenario, signInByEmail, text, waitForStep } from './support.js';

/**
 * Payment links (SPEC 4.14) end to end: the merchant creates a link over HTTP, a shopper opens
 * its URL in Chromium, pays on the hosted checkout with the sandbox (docs/sandbox-src-contract.md:
 * returning@example.com, OTP 123456), and the merchant sees the link PAID over HTTP. Inactive
 * links show a friendly page, never JSON.
 */
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

interface Link {
  linkRef: string;
  url: string;
  state: string;
  expiresAt: string;
  orderRef?: string;
}

const linksPath = () => `/transactions/outlets/${e2e().outletId}/payment-links`;

async function createLink(body: Record<string, unknown> = {}): Promise<Link> {
  const created = await api<Link>('POST', linksPath(), e2e().tokens.tenant, {
    action: 'AUTH',
    amount: { currencyCode: 'AED', value: 4200 },
    description: 'E2E link',
    ...body,
  });
  expect(created.status, 'create payment link').toBe(201);
  return created.body;
}

async function readLink(linkRef: string): Promise<Link> {
  const read = await api<Link>('GET', `${linksPath()}/${linkRef}`, e2e().tokens.tenant);
  expect(read.status, 'GET payment link').toBe(200);
  return read.body;
}

/** Opens an inactive link: the friendly page, HTML, with the status the SPEC gives it. */
async function openInactive(page: Page, url: string, status: number): Promise<void> {
  const response = await page.goto(url);
  expect(response?.status()).toBe(status);
  expect(response?.headers()['content-type']).toBe('text/html; charset=utf-8');
  await page.locator('[data-link-page]').waitFor();
}

describe('payment links', () => {
  it('payment link: the shopper opens it, pays with the sandbox, and the link is PAID', async () => {
    const link = await createLink({ merchantOrderReference: 'E2E-LINK' });
    await scenario(browser, 'payment-link-paid', async ({ page }) => {
      await open(page, link.url);
      expect(page.url()).toContain('/checkout');
      await waitForStep(page, 'identity');
      expect((await text(page)).replace(/\s+/g, ' ')).toContain('AED 42.00');
      await signInByEmail(page, 'returning@example.com');
      await enterOtp(page, '123456');
      await chooseCardAndPay(page, '1111');
      expect(await result(page)).toBe('success');
      await expectNoLeaks(page);
      const paid = await readLink(link.linkRef);
      expect(paid.state).toBe('PAID');
      expect(paid.orderRef).toBeTruthy();
      // Opening the link again: it is paid, and says so (no second checkout).
      await openInactive(page, link.url, 410);
      expect(await text(page)).toContain('This payment link has already been paid');
    });
  });

  it('payment link: an expired link shows a friendly page (410)', async () => {
    const link = await createLink({ expiresAt: new Date(Date.now() + 2_000).toISOString() });
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(link.expiresAt) - Date.now()) + 200));
    expect((await readLink(link.linkRef)).state).toBe('EXPIRED');
    await scenario(browser, 'payment-link-expired', async ({ page }) => {
      await openInactive(page, link.url, 410);
      expect(await text(page)).toContain('This payment link has expired');
      expect(await page.locator('script').count()).toBe(0);
    });
  });

  it('payment link: a cancelled link shows a friendly page (410), on a phone-sized screen too', async () => {
    const link = await createLink();
    const cancelled = await api<Link>('POST', `${linksPath()}/${link.linkRef}/cancel`, e2e().tokens.tenant);
    expect(cancelled.body.state).toBe('CANCELLED');
    await scenario(
      browser,
      'payment-link-cancelled',
      async ({ page }) => {
        await openInactive(page, link.url, 410);
        expect(await text(page)).toContain('This payment link is no longer available');
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(width).toBeLessThanOrEqual(375);
      },
      { viewport: { width: 375, height: 740 } },
    );
  });
});
