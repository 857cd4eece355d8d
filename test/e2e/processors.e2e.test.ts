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
 * Issue 20 item 7: a PRODUCTION merchant paid through the hosted page ends AUTHORISED through
 * each processor's fake. `npm start` runs here with PROCESSOR_FAKES=1 (test/e2e/global-setup.ts):
 * the Adyen and Checkout.com fakes, and one production demo merchant on each whose credentials
 * are read by ARN from the local Secrets Manager / SSM (infra/local/processor-fakes.ts). The
 * shopper pays with the fake Visa network (test/e2e/fakes/), the service authorizes with the
 * merchant's processor; then a capture through the API settles — for Adyen by the fake's signed
 * notification reaching the service's own POST /processors/adyen/notifications.
 */
const EMAIL = 'c2p.shopper@example.com';
const OTP = '246810';
/** What each processor's approval leaves in `authorization.resultCode` (the sandbox says 00). */
const RESULT_CODE = { adyen: 'Authorised', checkout_com: '10000' } as const;

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

async function payWithVisa(page: Page): Promise<void> {
  await signInByEmail(page, EMAIL);
  await enterOtp(page, OTP);
  await waitForStep(page, 'cards');
  await page.getByRole('radio', { name: /Visa ending in 1111/ }).check();
  await page.getByRole('button', { name: /^Pay / }).click();
  const frame = page.frameLocator('iframe[title="Visa Click to Pay"]');
  await frame.getByText(/ending in 1111/).waitFor();
  await frame.getByRole('button', { name: 'Continue' }).click();
}

interface PaymentView {
  state: string;
  authorization?: { code?: string; resultCode: string };
  captures?: { state: string }[];
}

async function paymentOf(outletId: string, orderRef: string): Promise<PaymentView> {
  const order = await api<{ payments: PaymentView[] }>('GET', `/transactions/outlets/${outletId}/orders/${orderRef}`, e2e().tokens.tenant);
  return order.body.payments.at(-1)!;
}

describe.each(['adyen', 'checkout_com'] as const)('a production merchant on %s, through the hosted page', (processor) => {
  it(`${processor}: Click to Pay checkout → authorized by the processor fake → captured`, async () => {
    const merchant = e2e().processors?.[processor];
    expect(merchant, 'npm start seeded the processor demo merchants (PROCESSOR_FAKES=1)').toBeDefined();
    const checkout = await createCheckout({ outletId: merchant!.outletId, value: 14900 });
    await scenario(browser, `processor-${processor}-checkout`, async ({ page, sentBodies }) => {
      await open(page, checkout.checkoutUrl);
      await payWithVisa(page);
      expect(await result(page)).toBe('success');
      expect(await text(page)).not.toContain('Test mode');
      await expectNoLeaks(page);
      expect(
        sentBodies.some((body) => body.url.includes('/sandbox/')),
        'neither the sandbox network nor the sandbox acquirer',
      ).toBe(false);
    });
    const order = await getOrder(checkout);
    expect(order.state).toBe('AUTHORISED');
    const authorized = await paymentOf(checkout.outletId, checkout.orderRef);
    expect(authorized.authorization).toMatchObject({ resultCode: RESULT_CODE[processor], code: expect.any(String) });

    const paymentRef = (
      await api<{ payments: { paymentRef: string }[] }>('GET', `/transactions/outlets/${checkout.outletId}/orders/${checkout.orderRef}`, e2e().tokens.tenant)
    ).body.payments[0]!.paymentRef;
    const captured = await api(
      'POST',
      `/transactions/outlets/${checkout.outletId}/orders/${checkout.orderRef}/payments/${paymentRef}/captures`,
      e2e().tokens.tenant,
    );
    expect(captured.status).toBe(201);
    // Adyen settles by notification (through the running service's endpoint), Checkout.com by recovery.
    let after = await paymentOf(checkout.outletId, checkout.orderRef);
    for (let i = 0; i < 50 && after.state !== 'CAPTURED'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      after = await paymentOf(checkout.outletId, checkout.orderRef);
    }
    expect(after).toMatchObject({ state: 'CAPTURED', captures: [{ state: 'SUCCEEDED' }] });
  });
});
