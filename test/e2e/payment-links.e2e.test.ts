import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  atWidth,
  chooseCardAndPay,
  e2e,
  enterOtp,
  expectNoLeaks,
  expectNoSidewaysScroll,
  launchBrowser,
  open,
  result,
  scenario,
  signInByEmail,
  text,
  waitForStep,
  WIDTHS,
} from './support.js';

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

  it.each(WIDTHS)('payment link: the shopper sees its description — the merchant’s text as text, never markup (%i px)', async (width) => {
    // Merchant free text with markup in it: shown character for character, nothing parsed from it.
    const description = `Invoice 2041 — <b>3 × espresso</b> & "croissant" <img src=x onerror=alert(1)> ${'long-word-'.repeat(8)}end`;
    const link = await createLink({ description, merchantOrderReference: 'E2E-LINK-TEXT' });
    await scenario(
      browser,
      `payment-link-description-${width}`,
      async ({ page }) => {
        await open(page, link.url);
        await waitForStep(page, 'identity');
        const shown = page.getByTestId('description');
        expect(await shown.innerText()).toBe(description);
        expect(await shown.locator('*').count()).toBe(0);
        expect(await page.locator('main b, main img').count()).toBe(0);
        expect(await page.locator('.summary').innerText()).toContain('E2E-LINK-TEXT');
        await expectNoSidewaysScroll(page, width, 'identity with a long description');
        // A second open (a fresh session for the same order) shows it too.
        await open(page, link.url);
        await waitForStep(page, 'identity');
        expect(await page.getByTestId('description').innerText()).toBe(description);
      },
      atWidth(width),
    );
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
