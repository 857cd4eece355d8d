import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';
import type { DemoFile } from '../../infra/local/demo-file.js';

/** What `npm start` wrote to <DATA_DIR>/demo.json (handed over by global-setup). */
export type E2eContext = DemoFile;

export function e2e(): E2eContext {
  const raw = process.env.E2E_CONTEXT;
  if (!raw) throw new Error('E2E_CONTEXT is missing: run through `npm run test:e2e`');
  return JSON.parse(raw) as E2eContext;
}

const resultsDir = () => process.env.E2E_RESULTS_DIR ?? join(process.cwd(), 'test-results', 'e2e');

// ------------------------------------------------------------------------- HTTP (the API)

export async function api<T = Record<string, unknown>>(method: string, path: string, token: string, body?: unknown): Promise<{ status: number; body: T }> {
  const response = await fetch(`${e2e().baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json().catch(() => ({}))) as T };
}

export interface Checkout {
  outletId: string;
  orderRef: string;
  checkoutUrl: string;
  sessionToken: string;
}

/** A fresh order (4.8) and hosted session (4.9), as a merchant's server would create them. */
export async function createCheckout(options: { value?: number; currencyCode?: string; outletId?: string; reference?: string } = {}): Promise<Checkout> {
  const { tokens, outletId: demoOutlet } = e2e();
  const outletId = options.outletId ?? demoOutlet;
  const order = await api<{ orderRef: string }>('POST', `/transactions/outlets/${outletId}/orders`, tokens.tenant, {
    action: 'AUTH',
    amount: { currencyCode: options.currencyCode ?? 'AED', value: options.value ?? 14900 },
    ...(options.reference ? { merchantOrderReference: options.reference } : {}),
  });
  expect(order.status, 'create order').toBe(201);
  const session = await api<{ sessionToken: string; checkoutUrl: string }>(
    'POST',
    `/transactions/outlets/${outletId}/orders/${order.body.orderRef}/hosted-sessions`,
    tokens.tenant,
  );
  expect(session.status, 'create hosted session').toBe(201);
  return { outletId, orderRef: order.body.orderRef, checkoutUrl: session.body.checkoutUrl, sessionToken: session.body.sessionToken };
}

export interface OrderView {
  state: string;
  payments: { state: string; paymentMethod?: { brand?: string; panLastFour?: string }; failure?: { code: string } }[];
}

export async function getOrder(checkout: Pick<Checkout, 'outletId' | 'orderRef'>): Promise<OrderView> {
  const response = await api<OrderView>('GET', `/transactions/outlets/${checkout.outletId}/orders/${checkout.orderRef}`, e2e().tokens.tenant);
  expect(response.status, 'GET order').toBe(200);
  return response.body;
}

// ---------------------------------------------------------------------------------- browser

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface Scenario {
  page: Page;
  context: BrowserContext;
  /** Every request body the page sent (to prove no card number leaves it in clear). */
  sentBodies: { url: string; body: string }[];
}

/**
 * Runs one scenario in its own browser context and saves its final screen to
 * test-results/e2e/<name>.png (also when it fails, to see why).
 */
export async function scenario(
  browser: Browser,
  name: string,
  run: (s: Scenario) => Promise<void>,
  options: { viewport?: { width: number; height: number }; isMobile?: boolean } = {},
): Promise<void> {
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1280, height: 900 },
    ...(options.isMobile ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}),
    locale: 'en-US',
  });
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  const sentBodies: Scenario['sentBodies'] = [];
  const pageErrors: string[] = [];
  page.on('request', (request) => {
    const body = request.postData();
    if (body) sentBodies.push({ url: request.url(), body });
  });
  page.on('pageerror', (error) => pageErrors.push(error.message));
  try {
    await run({ page, context, sentBodies });
    expect(pageErrors, 'uncaught errors in the page').toEqual([]);
  } finally {
    await mkdir(resultsDir(), { recursive: true });
    await page.screenshot({ path: join(resultsDir(), `${name}.png`), fullPage: true }).catch(() => undefined);
    await context.close();
  }
}

/** The widths a screen is checked and photographed at: a phone (375 px, touch) and a desktop. */
export const WIDTHS = [375, 1280] as const;
export type Width = (typeof WIDTHS)[number];

/** scenario()'s options for `width`: the phone with a touch screen and device pixels, as a real one. */
export function atWidth(width: Width): { viewport: { width: number; height: number }; isMobile?: boolean } {
  return width === 375 ? { viewport: { width: 375, height: 740 }, isMobile: true } : { viewport: { width: 1280, height: 900 } };
}

/** A screenshot of the page as it is now, beside the scenarios' own: test-results/e2e/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(resultsDir(), { recursive: true });
  await page.screenshot({ path: join(resultsDir(), `${name}.png`), fullPage: true });
}

/** The document is no wider than the screen (against `width` itself: with isMobile the layout viewport widens with what overflows). */
export async function expectNoSidewaysScroll(page: Page, width: number, what: string): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `scrollWidth on ${what}`).toBeLessThanOrEqual(width);
}

// ------------------------------------------------------------------------------ page steps

export async function open(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.locator('[data-step]').waitFor();
}

export async function waitForStep(page: Page, step: string, timeout = 30_000): Promise<void> {
  await page.locator(`[data-step="${step}"]`).waitFor({ timeout });
}

export async function signInByEmail(page: Page, email: string): Promise<void> {
  await waitForStep(page, 'identity');
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
}

export async function signInByMobile(page: Page, mobile: string): Promise<void> {
  await waitForStep(page, 'identity');
  await page.getByRole('radio', { name: 'Mobile' }).check();
  await page.getByRole('textbox', { name: 'Mobile number' }).fill(mobile);
  await page.getByRole('button', { name: 'Continue' }).click();
}

export async function enterOtp(page: Page, code: string): Promise<void> {
  await waitForStep(page, 'otp');
  await page.getByLabel('One-time code').fill(code);
  await page.getByRole('button', { name: 'Verify code' }).click();
}

export async function chooseCardAndPay(page: Page, lastFour: string): Promise<void> {
  await waitForStep(page, 'cards');
  await page.getByRole('radio', { name: new RegExp(`ending in ${lastFour}`) }).check();
  await page.getByRole('button', { name: /^Pay / }).click();
}

/** The issuer's challenge in the page's 3DS iframe: types `code` and presses Verify. */
export async function answerIssuerChallenge(page: Page, code: string): Promise<void> {
  const frame = page.frameLocator('iframe[title="Verification by your card issuer"]');
  await frame.getByLabel('Verification code').fill(code);
  await frame.getByRole('button', { name: 'Verify' }).click();
}

/**
 * Pays with the 3DS card (•••• 3220) and fails its challenge (code 9999): the declined result,
 * with another card offered (THREE_DS_FAILED is retryable, the server says so).
 */
export async function payAndFailChallenge(page: Page): Promise<void> {
  await chooseCardAndPay(page, '3220');
  await waitForStep(page, 'three-ds', 60_000);
  await answerIssuerChallenge(page, '9999');
  expect(await result(page)).toBe('declined');
  expect(await text(page)).toContain('Your bank couldn’t verify this payment');
  expect(await page.getByRole('button', { name: 'Try another card' }).isVisible()).toBe(true);
}

export async function result(page: Page, timeout = 60_000): Promise<string> {
  const locator = page.locator('[data-result]');
  await locator.waitFor({ timeout });
  return (await locator.getAttribute('data-result')) ?? '';
}

/** The page's visible text, with the no-break spaces Intl puts in amounts made plain spaces. */
export async function text(page: Page): Promise<string> {
  return (await page.locator('body').innerText()).replace(/[\u00a0\u202f]/g, ' ');
}

/** Focus of the document as a short description: tag#id[name] "text". */
export function focused(page: Page): Promise<{ tag: string; id: string; name: string; text: string; testId: string }> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return {
      tag: el?.tagName.toLowerCase() ?? '',
      id: el?.id ?? '',
      name: el?.getAttribute('name') ?? '',
      text: (el?.textContent ?? '').trim().slice(0, 80),
      testId: el?.getAttribute('data-testid') ?? '',
    };
  });
}

/** Presses Tab until the focused element matches (keyboard only), or fails after `max` presses. */
export async function tabTo(page: Page, matches: (f: Awaited<ReturnType<typeof focused>>) => boolean, max = 25): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (matches(await focused(page))) return;
  }
  throw new Error(`Tab did not reach the element within ${max} presses (focus: ${JSON.stringify(await focused(page))})`);
}

/**
 * What the customer can read never contains card numbers, tokens, JOSE objects or raw
 * problem/SRC codes (e.g. INSUFFICIENT_FUNDS, OTP_INVALID).
 */
export async function expectNoLeaks(page: Page, secrets: string[] = []): Promise<void> {
  const visible = await text(page);
  const html = await page.content();
  for (const secret of secrets) {
    expect(visible).not.toContain(secret);
    expect(html).not.toContain(secret);
  }
  expect(visible).not.toMatch(/\b\d{13,19}\b/);
  expect(visible).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}/);
  expect(visible).not.toMatch(/\b[A-Z]{2,}(?:_[A-Z0-9]+)+\b/);
  expect(visible).not.toMatch(/hs_[A-Za-z0-9_-]{20,}/);
}

/**
 * Moves a hosted session's expiry into the past in the service's own DynamoDB, the way time
 * would: the item is still there (TTL deletion is lazy) but must count as absent.
 */
export async function expireSession(sessionToken: string): Promise<void> {
  const { createHash } = await import('node:crypto');
  const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
  const { DynamoDBDocumentClient, UpdateCommand } = await import('@aws-sdk/lib-dynamodb');
  const { local } = e2e();
  const client = DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint: local.dynamoEndpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
  );
  await client.send(
    new UpdateCommand({
      TableName: local.sessionsTable,
      Key: { pk: createHash('sha256').update(sessionToken).digest('hex') },
      UpdateExpression: 'SET expiresAt = :past',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':past': Math.floor(Date.now() / 1000) - 5 },
    }),
  );
  client.destroy();
}
