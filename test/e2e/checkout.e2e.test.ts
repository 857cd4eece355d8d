import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  answerIssuerChallenge,
  atWidth,
  expireSession,
  expectNoSidewaysScroll,
  api,
  chooseCardAndPay,
  createCheckout,
  e2e,
  enterOtp,
  expectNoLeaks,
  focused,
  getOrder,
  launchBrowser,
  open,
  payAndFailChallenge,
  result,
  scenario,
  signInByEmail,
  signInByMobile,
  tabTo,
  text,
  waitForStep,
  WIDTHS,
} from './support.js';

/**
 * The hosted Click to Pay checkout, end to end: a merchant order and hosted session over HTTP,
 * a person in Chromium on the page, the outcome checked through GET order over HTTP.
 * Sandbox data: docs/sandbox-src-contract.md (consumers, OTP 123456) and SPEC §5 (amounts
 * ending 51 decline, 99 time out; 3DS code 1234).
 */
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const PAN = '4111111111111111';

async function alertText(page: Page): Promise<string> {
  const alert = page.getByRole('alert').first();
  await alert.waitFor();
  return alert.innerText();
}

describe('hosted checkout — paying', () => {
  it('returning customer by email pays and the order is AUTHORISED', async () => {
    const checkout = await createCheckout({ value: 14900, reference: 'E2E-EMAIL' });
    await scenario(browser, 'returning-email', async ({ page }) => {
      await open(page, checkout.checkoutUrl);
      // The token left the address bar at once and the page shows who is paid and how much.
      expect(page.url()).not.toContain('session=');
      expect(page.url()).not.toContain(checkout.sessionToken);
      await waitForStep(page, 'identity');
      expect((await page.getByTestId('amount').innerText()).replace(/\s/g, ' ')).toBe('AED 149.00');
      expect(await text(page)).toContain('Demo Shop');
      expect(await text(page)).toContain('E2E-EMAIL');
      expect(await page.title()).toContain('Demo Shop');

      await signInByEmail(page, 'returning@example.com');
      await waitForStep(page, 'otp');
      expect(await text(page)).toContain('r***@example.com');
      expect((await focused(page)).id).toBe('otp');
      await enterOtp(page, '123456');
      await waitForStep(page, 'cards');
      const cards = (await page.locator('.card-option').allInnerTexts()).join('\n');
      expect(cards).toMatch(/Visa\s*••••\s*(?:ending in\s*)?1111/);
      expect(cards).toContain('Expires 12/29');
      expect(await page.getByRole('radio', { name: /Visa ending in 1111/ }).isChecked()).toBe(true);
      expect(await text(page)).toContain('Mastercard');
      await chooseCardAndPay(page, '1111');
      expect(await result(page)).toBe('success');
      expect(await text(page)).toContain('Payment successful');
      expect(await text(page)).toMatch(/Visa •••• 1111/);
      await expectNoLeaks(page, [checkout.sessionToken]);
      await page.reload();
      expect(await result(page)).toBe('success');
      expect(await text(page)).toContain('This order is already paid');
      // The merchant captures half (4.11): the page, reloaded, still never offers a second checkout.
      const paid = await getOrder(checkout);
      const paymentRef = (paid.payments[0] as unknown as { paymentRef: string }).paymentRef;
      const captured = await api(
        'POST',
        `/transactions/outlets/${checkout.outletId}/orders/${checkout.orderRef}/payments/${paymentRef}/captures`,
        e2e().tokens.tenant,
        { amount: { currencyCode: 'AED', value: 7450 } },
      );
      expect(captured.status).toBe(201);
      await page.reload();
      expect(await result(page)).toBe('success');
      expect(await text(page)).toContain('This order is already paid');
    });
    const order = await getOrder(checkout);
    expect(order.state).toBe('PARTIALLY_CAPTURED');
    expect(order.payments[0]?.paymentMethod?.panLastFour).toBe('1111');
  });

  it('returning customer by mobile number (SMS code) pays', async () => {
    const checkout = await createCheckout({ value: 2500 });
    await scenario(browser, 'returning-phone', async ({ page }) => {
      await open(page, checkout.checkoutUrl);
      await signInByMobile(page, '+971 50 000 0002');
      await waitForStep(page, 'otp');
      expect(await text(page)).toMatch(/by text message to\s+\+971\*+0002/);
      await enterOtp(page, '123456');
      await waitForStep(page, 'cards');
      expect(await page.getByRole('radio').count()).toBe(1);
      await chooseCardAndPay(page, '1111');
      expect(await result(page)).toBe('success');
      expect(await text(page)).toContain('AED 25.00');
    });
    expect((await getOrder(checkout)).state).toBe('AUTHORISED');
  });

  it('validates the email address and mobile number before any lookup', async () => {
    const checkout = await createCheckout();
    await scenario(browser, 'identity-validation', async ({ page, sentBodies }) => {
      await open(page, checkout.checkoutUrl);
      await waitForStep(page, 'identity');
      // A reload of /checkout (the token has left the address bar) carries on in this tab.
      await page.reload();
      await waitForStep(page, 'identity');
      expect(page.url()).not.toContain('session=');
      expect((await text(page)).replace(/\s+/g, ' ')).toContain('AED 149.00');
      await page.getByLabel('Email address').fill('name@example');
      await page.getByRole('button', { name: 'Continue' }).click();
      expect(await alertText(page)).toContain('Enter an email address like name@example.com.');
      expect((await focused(page)).id).toBe('identity-email');
      expect(await page.getByLabel('Email address').getAttribute('aria-invalid')).toBe('true');

      await page.getByRole('radio', { name: 'Mobile' }).check();
      await page.getByRole('textbox', { name: 'Mobile number' }).fill('050 000 0001');
      await page.getByRole('button', { name: 'Continue' }).click();
      expect(await alertText(page)).toContain('Include your country code');
      expect(sentBodies.filter((b) => b.url.includes('/identity-lookup'))).toHaveLength(0);
    });
  });

  it('wrong code, then the right one', async () => {
    const checkout = await createCheckout({ value: 3000 });
    await scenario(browser, 'wrong-otp-then-right', async ({ page }) => {
      await open(page, checkout.checkoutUrl);
      await signInByEmail(page, 'returning@example.com');
      await enterOtp(page, '000000');
      expect(await alertText(page)).toMatch(/That code isn’t right\. You have 2 attempts left\./);
      expect((await focused(page)).id).toBe('otp');
      expect(await page.getByLabel('One-time code').inputValue()).toBe('');
      await enterOtp(page, '123456');
      await chooseCardAndPay(page, '4444');
      expect(await result(page)).toBe('success');
      await expectNoLeaks(page);
    });
    const order = await getOrder(checkout);
    expect(order.state).toBe('AUTHORISED');
    expect(order.payments[0]?.paymentMethod?.brand).toBe('MASTERCARD');
  });

  it('resend code: a new code is announced, then the code works', async () => {
    const checkout = await createCheckout({ value: 3100 });
    await scenario(browser, 'resend-otp', async ({ page }) => {
      await open(page, checkout.checkoutUrl);
      await signInByEmail(page, 'returning@example.com');
      await waitForStep(page, 'otp');
      await page.getByRole('button', { name: 'Resend code' }).click();
      await page
        .getByText(/We sent a new code to r\*\*\*@example\.com\./)
        .first()
        .waitFor();
      expect(await text(page)).toMatch(/2 more codes can be sent/);
      expect((await focused(page)).id).toBe('otp');
      await enterOtp(page, '123456');
      await chooseCardAndPay(page, '1111');
      expect(await result(page)).toBe('success');
    });
    expect((await getOrder(checkout)).state).toBe('AUTHORISED');
  });

  it('"Not you?" switches identity and pays as the other customer', async () => {
    const checkout = await createCheckout({ value: 3200 });
    await scenario(browser, 'switch-identity', async ({ page }) => {
      await open(page, checkout.checkoutUrl);
      await signInByEmail(page, 'returning@example.com');
      await enterOtp(page, '123456');
      await waitForStep(page, 'cards');
      expect(await page.getByRole('radio').count()).toBe(4);
      await page.getByRole('button', { name: 'Not you?' }).click();
      await waitForStep(page, 'identity');
      expect(await text(page)).toContain('You’re signed out of Click to Pay');
      expect(await page.getByLabel('Email address').inputValue()).toBe('');
      await signInByMobile(page, '+971500000002');
      await enterOtp(page, '123456');
      await waitForStep(page, 'cards');
      expect(await page.getByRole('radio').count()).toBe(1);
      expect(await text(page)).toContain('+971*****0002');
      await chooseCardAndPay(page, '1111');
      expect(await result(page)).toBe('success');
    });
    expect((await getOrder(checkout)).state).toBe('AUTHORISED');
  });

  it('empty card list, then a new card is enrolled (encrypted in the browser) and pays', async () => {
    const checkout = await createCheckout({ value: 4200 });
    await scenario(browser, 'enroll-new-card', async ({ page, sentBodies }) => {
      await open(page, checkout.checkoutUrl);
      await signInByEmail(page, 'new@example.com');
      await enterOtp(page, '123456');
      await waitForStep(page, 'cards');
      expect(await page.getByRole('heading', { name: 'No cards yet' }).isVisible()).toBe(true);
      expect(await text(page)).toContain('There are no cards in your Click to Pay profile');
      await page.screenshot({ path: `${process.env.E2E_RESULTS_DIR}/empty-cards.png`, fullPage: true });
      await page.getByRole('button', { name: 'Add a card' }).click();
      await waitForStep(page, 'add-card');

      // Luhn, expiry, security code and name are checked before anything is sent.
      await page.getByLabel('Card number').fill('4111 1111 1111 1112');
      await page.getByLabel('Expiry date').fill('01/20');
      await page.getByRole('button', { name: 'Add card' }).click();
      expect(await text(page)).toContain('Check your card number');
      expect(await text(page)).toContain('This card has expired.');
      expect(await text(page)).toContain('Enter the security code.');
      expect(await text(page)).toContain('Enter the name on the card.');
      expect((await focused(page)).id).toBe('card-number');

      await page.getByLabel('Card number').fill(PAN);
      expect(await page.getByLabel('Card number').inputValue()).toBe('4111 1111 1111 1111');
      await page.getByLabel('Expiry date').fill('');
      await page.getByLabel('Expiry date').pressSequentially('1230');
      expect(await page.getByLabel('Expiry date').inputValue()).toBe('12/30');
      await page.getByLabel('Security code').fill('123');
      await page.getByLabel('Name on card').fill('Nora Example');
      await page.getByRole('button', { name: 'Add card' }).click();
      await waitForStep(page, 'cards');
      expect(await text(page)).toMatch(/Card added: Visa ending in 1111\./);
      await chooseCardAndPay(page, '1111');
      expect(await result(page)).toBe('success');
      await expectNoLeaks(page, [PAN]);

      // The card travelled as a compact JWE (RSA-OAEP-256 + A128GCM, kid = 4.2 current key).
      const enroll = sentBodies.find((b) => b.url.endsWith('/sandbox/src/cards/enroll'));
      expect(enroll).toBeDefined();
      const sent = JSON.parse(enroll!.body) as { encryptedCard: string; panLastFour: string };
      expect(sent.encryptedCard.split('.')).toHaveLength(5);
      const header = JSON.parse(Buffer.from(sent.encryptedCard.split('.')[0]!, 'base64url').toString()) as Record<string, string>;
      const keys = await api<{ encryptionKeyId: string }>('GET', '/config/configs/vctp/encryption-keys', e2e().tokens.tenant);
      expect(header).toEqual({ alg: 'RSA-OAEP-256', enc: 'A128GCM', kid: keys.body.encryptionKeyId });
      expect(sent.panLastFour).toBe('1111');
      for (const body of sentBodies) expect(body.body.replace(/\D/g, '')).not.toContain(PAN);
    });
    expect((await getOrder(checkout)).state).toBe('AUTHORISED');
  });

  it('no Click to Pay profile: the page offers to add a card, which then pays', async () => {
    const checkout = await createCheckout({ value: 4300 });
    await scenario(browser, 'unknown-consumer-adds-card', async ({ page }) => {
      await open(page, checkout.checkoutUrl);
      await signInByEmail(page, 'someone.new@example.org');
      await page.getByText('No Click to Pay profile found').waitFor();
      await page.getByRole('button', { name: 'Add a card' }).click();
      await waitForStep(page, 'add-card');
      await page.getByLabel('Card number').fill('5555 5555 5555 4444');
      await page.getByLabel('Expiry date').fill('08/31');
      await page.getByLabel('Security code').fill('321');
      await page.getByLabel('Name on card').fill('Sam New');
      await page.getByRole('button', { name: 'Add card' }).click();
      await waitForStep(page, 'cards');
      expect(await text(page)).toContain('Paying as someone.new@example.org');
      await chooseCardAndPay(page, '4444');
      expect(await result(page)).toBe('success');
      await expectNoLeaks(page, ['5555555555554444']);
    });
    expect((await getOrder(checkout)).state).toBe('AUTHORISED');
  });

  it('3DS challenge passed (code 1234) → AUTHORISED', async () => {
    const checkout = await createCheckout({ value: 5300 });
    await scenario(browser, '3ds-success', async ({ page }) => {
      await open(page, checkout.checkoutUrl);
      await signInByEmail(page, 'returning@example.com');
      await enterOtp(page, '123456');
      await chooseCardAndPay(page, '3220');
      await waitForStep(page, 'three-ds', 60_000);
      expect(await page.getByRole('heading', { name: 'Confirm it’s you' }).isVisible()).toBe(true);
      await answerIssuerChallenge(page, '1234');
      expect(await result(page)).toBe('success');
      expect(await text(page)).toMatch(/Visa •••• 3220/);
    });
    expect((await getOrder(checkout)).state).toBe('AUTHORISED');
  });

  it('3DS challenge failed → declined, order FAILED', async () => {
    const checkout = await createCheckout({ value: 5400 });
    await scenario(browser, '3ds-failure', async ({ page }) => {
      await open(page, checkout.checkoutUrl);
      await signInByEmail(page, 'returning@example.com');
      await enterOtp(page, '123456');
      await payAndFailChallenge(page);
      await expectNoLeaks(page);
    });
    const order = await getOrder(checkout);
    expect(order.state).toBe('FAILED');
    expect(order.payments[0]?.failure?.code).toBe('THREE_DS_FAILED');
  });

  it('keyboard only: Tab, arrows, typing and Enter — no mouse', async () => {
    const checkout = await createCheckout({ value: 6100 });
    await scenario(browser, 'keyboard-only', async ({ page }) => {
      await open(page, checkout.checkoutUrl);
      await waitForStep(page, 'identity');
      // The heading has focus as soon as the step is visible (a layout effect, before paint): a
      // focus moved later would pull it out of the field the shopper already tabbed into.
      expect((await focused(page)).tag).toBe('h2');
      await tabTo(page, (f) => f.id === 'identity-email');
      await page.keyboard.type('returning@example.com');
      await page.keyboard.press('Enter');
      await waitForStep(page, 'otp');
      await page.waitForFunction(() => document.activeElement?.id === 'otp');
      await page.keyboard.type('123456');
      await page.keyboard.press('Enter');
      await waitForStep(page, 'cards');
      // Focus went to the step heading; the card list is one radio group: arrows choose.
      expect((await focused(page)).tag).toBe('h2');
      await tabTo(page, (f) => f.name === 'card');
      await page.keyboard.press('ArrowDown');
      expect(await page.getByRole('radio', { name: /ending in 4444/ }).isChecked()).toBe(true);
      await tabTo(page, (f) => f.testId === 'pay');
      const ring = await page.evaluate(() => {
        const style = getComputedStyle(document.activeElement!);
        return { style: style.outlineStyle, width: parseFloat(style.outlineWidth) };
      });
      expect(ring.style).not.toBe('none');
      expect(ring.width).toBeGreaterThanOrEqual(2);
      await page.keyboard.press('Enter');
      expect(await result(page)).toBe('success');
    });
    const order = await getOrder(checkout);
    expect(order.state).toBe('AUTHORISED');
    expect(order.payments[0]?.paymentMethod?.panLastFour).toBe('4444');
  });

  it('phone-sized viewport (375×667): no sideways scrolling, whole flow works', async () => {
    const checkout = await createCheckout({ value: 7700, reference: 'E2E-PHONE' });
    await scenario(
      browser,
      'phone-375x667',
      async ({ page }) => {
        await open(page, checkout.checkoutUrl);
        await waitForStep(page, 'identity');
        await expectNoSidewaysScroll(page, 375, 'identity');
        await signInByEmail(page, 'returning@example.com');
        await waitForStep(page, 'otp');
        await expectNoSidewaysScroll(page, 375, 'otp');
        await enterOtp(page, '123456');
        await waitForStep(page, 'cards');
        await expectNoSidewaysScroll(page, 375, 'cards');
        // The radio buttons sit inside the panel, not cut off at its edge.
        const panel = await page.locator('.panel').boundingBox();
        for (const option of await page.locator('.card-option').all()) {
          const box = await option.boundingBox();
          expect(box!.x + box!.width).toBeLessThanOrEqual(panel!.x + panel!.width);
        }
        const pay = await page.getByRole('button', { name: /^Pay / }).boundingBox();
        expect(pay!.x).toBeGreaterThanOrEqual(0);
        expect(pay!.x + pay!.width).toBeLessThanOrEqual(375);
        expect(pay!.height).toBeGreaterThanOrEqual(44);
        await page.getByRole('button', { name: '+ Add a new card' }).click();
        await waitForStep(page, 'add-card');
        await expectNoSidewaysScroll(page, 375, 'add-card');
        await page.getByRole('button', { name: 'Back to your cards' }).click();
        await chooseCardAndPay(page, '4444');
        expect(await result(page)).toBe('success');
        await expectNoSidewaysScroll(page, 375, 'success');
      },
      { viewport: { width: 375, height: 667 }, isMobile: true },
    );
    expect((await getOrder(checkout)).state).toBe('AUTHORISED');
  });
});

describe('hosted checkout — the card list', () => {
  it.each(WIDTHS)('each card shows its whole expiry; a long card name gives way, never the expiry (%i px)', async (width) => {
    const checkout = await createCheckout({ value: 7800 });
    await scenario(
      browser,
      `card-list-expiry-${width}`,
      async ({ page }) => {
        await open(page, checkout.checkoutUrl);
        await signInByEmail(page, 'returning@example.com');
        await enterOtp(page, '123456');
        await waitForStep(page, 'cards');
        await expectNoSidewaysScroll(page, width, 'cards');
        // Where "Expires MM/YY" is laid out, against what clips it: every box between it and its
        // card that hides overflow, and the radio dot beside it. Independent of the markup: a
        // clipped or ellipsized expiry is laid out past that edge.
        const rows = await page.locator('.card-option').evaluateAll((options) =>
          options.map((option) => {
            const walker = document.createTreeWalker(option, NodeFilter.SHOW_TEXT);
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
              const at = node.textContent?.indexOf('Expires') ?? -1;
              if (at < 0) continue;
              const holder = node.parentElement!;
              const range = document.createRange();
              range.setStart(node, at);
              range.setEndAfter(holder.lastChild!);
              let clipRight = option.querySelector('.radio-dot')!.getBoundingClientRect().left;
              for (let box: Element | null = holder; box && box !== option; box = box.parentElement) {
                if (getComputedStyle(box).overflowX !== 'visible') clipRight = Math.min(clipRight, box.getBoundingClientRect().right);
              }
              return {
                text: range.toString().trim(),
                right: range.getBoundingClientRect().right,
                clipRight,
                scroll: holder.scrollWidth,
                client: holder.clientWidth,
              };
            }
            return undefined;
          }),
        );
        expect(rows.length).toBeGreaterThanOrEqual(3);
        for (const row of rows) {
          expect(row?.text).toMatch(/^Expires \d{2}\/\d{2}$/);
          expect(row!.right, row!.text).toBeLessThanOrEqual(row!.clipRight + 0.5);
          expect(row!.scroll, `${row!.text}: scrollWidth <= clientWidth`).toBeLessThanOrEqual(row!.client);
        }
        // The sandbox's long card names are what gives way at 375 px.
        if (width === 375) {
          const names = await page.locator('.card-tile-name').evaluateAll((spans) => spans.map((span) => span.scrollWidth > span.clientWidth));
          expect(names).toContain(true);
        }
      },
      atWidth(width),
    );
  });
});

describe('hosted checkout — failures have a clear message and a way forward', () => {
  it('decline (amount ending 51): insufficient funds, order FAILED', async () => {
    const checkout = await createCheckout({ value: 10051 });
    await scenario(browser, 'decline', async ({ page }) => {
      await open(page, checkout.checkoutUrl);
      await signInByEmail(page, 'returning@example.com');
      await enterOtp(page, '123456');
      await chooseCardAndPay(page, '1111');
      expect(await result(page)).toBe('declined');
      const body = await text(page);
      expect(body).toContain('Payment declined');
      expect(body).toContain('insufficient funds');
      expect(body).toContain('Nothing has been charged');
      await expectNoLeaks(page);
    });
    const order = await getOrder(checkout);
    expect(order.state).toBe('FAILED');
    expect(order.payments[0]?.failure?.code).toBe('INSUFFICIENT_FUNDS');
  });

  it('decline of an expired card (token ending 0002)', async () => {
    const checkout = await createCheckout({ value: 1200 });
    await scenario(browser, 'decline-card-expired', async ({ page }) => {
      await open(page, checkout.checkoutUrl);
      await signInByEmail(page, 'returning@example.com');
      await enterOtp(page, '123456');
      await chooseCardAndPay(page, '0002');
      expect(await result(page)).toBe('declined');
      expect(await text(page)).toContain('this card has expired');
      await expectNoLeaks(page);
    });
    expect((await getOrder(checkout)).payments[0]?.failure?.code).toBe('CARD_EXPIRED');
  });

  it('authorizer timeout (502, amount ending 99): nothing charged, try again offered, order still open', async () => {
    const checkout = await createCheckout({ value: 1099 });
    await scenario(browser, 'authorization-unavailable', async ({ page }) => {
      await open(page, checkout.checkoutUrl);
      await signInByEmail(page, 'returning@example.com');
      await enterOtp(page, '123456');
      await chooseCardAndPay(page, '1111');
      await waitForStep(page, 'pay-error', 90_000);
      const body = await text(page);
      expect(body).toContain('The bank didn’t respond in time');
      expect(body).toContain('nothing has been charged');
      expect(await page.getByRole('button', { name: 'Try again' }).isVisible()).toBe(true);
      expect(await page.getByRole('button', { name: 'Choose another card' }).isVisible()).toBe(true);
      await expectNoLeaks(page);
    });
    expect((await getOrder(checkout)).state).toBe('STARTED');
  });

  it('checkout failure (the sandbox checkout-error card): back to the cards with a message', async () => {
    const checkout = await createCheckout({ value: 1300 });
    await scenario(browser, 'checkout-failure', async ({ page }) => {
      await open(page, checkout.checkoutUrl);
      await signInByEmail(page, 'checkout-error@example.com');
      await enterOtp(page, '123456');
      await waitForStep(page, 'cards');
      await page.getByRole('button', { name: /^Pay / }).click();
      await page.getByText('Checkout with this card didn’t work').waitFor();
      await waitForStep(page, 'cards');
      expect(await alertText(page)).toContain('Nothing has been charged');
      expect((await focused(page)).testId).toBe('alert');
      await expectNoLeaks(page);
    });
    expect((await getOrder(checkout)).state).toBe('STARTED');
  });

  it('card retrieval error: message, retry and another identity', async () => {
    const checkout = await createCheckout();
    await scenario(browser, 'cards-error', async ({ page }) => {
      await open(page, checkout.checkoutUrl);
      await signInByEmail(page, 'cards-error@example.com');
      await enterOtp(page, '123456');
      await waitForStep(page, 'cards-error');
      expect(await text(page)).toContain('We couldn’t load your cards');
      await page.getByRole('button', { name: 'Try again' }).click();
      await waitForStep(page, 'cards-error');
      expect(await page.getByRole('button', { name: 'Use a different email or number' }).isVisible()).toBe(true);
      await expectNoLeaks(page);
    });
  });

  it('authentication failure (locked account): message and the form stays usable', async () => {
    const checkout = await createCheckout();
    await scenario(browser, 'authentication-failure', async ({ page }) => {
      await open(page, checkout.checkoutUrl);
      await signInByEmail(page, 'locked@example.com');
      expect(await alertText(page)).toContain('We couldn’t sign you in');
      expect((await focused(page)).testId).toBe('alert');
      await waitForStep(page, 'identity');
      expect(await page.getByLabel('Email address').isEditable()).toBe(true);
      await expectNoLeaks(page);
    });
  });

  it('OTP validation error: an expired code, then too many wrong codes locks sign-in', async () => {
    const checkout = await createCheckout();
    await scenario(browser, 'otp-errors', async ({ page }) => {
      await open(page, checkout.checkoutUrl);
      await signInByEmail(page, 'returning@example.com');
      await enterOtp(page, '999999');
      expect(await alertText(page)).toContain('This code has expired');
      for (const wrong of ['111111', '222222', '333333', '444444']) {
        if (await page.getByText('Too many incorrect codes').isVisible()) break;
        await enterOtp(page, wrong);
        await page.getByRole('alert').first().waitFor();
      }
      await page.getByText('Too many incorrect codes').first().waitFor();
      const forward = page.getByRole('button', { name: 'Use a different email or mobile number' });
      expect(await forward.isVisible()).toBe(true);
      await expectNoLeaks(page);
      await forward.click();
      await waitForStep(page, 'identity');
    });
    expect((await getOrder(checkout)).state).toBe('STARTED');
  });

  it('SDK initialization failure (merchant with an invalid- DPA)', async () => {
    const { tokens, tenantRef } = e2e();
    const onboard = await api('PUT', '/config/merchants/e2e-invalid-dpa/configs/vctp', tokens.platform, {
      tenantRef,
      dpaId: 'invalid-dpa-e2e',
      dpaClientId: 'e2e-client',
      dpaName: 'Broken Shop',
      cardBrands: ['visa', 'mastercard'],
      locale: 'en_AE',
      environment: 'sandbox',
      threeDsPolicy: 'risk-based',
      outlets: ['e2e-invalid-outlet'],
    });
    expect(onboard.status).toBe(200);
    const checkout = await createCheckout({ outletId: 'e2e-invalid-outlet', value: 1500 });
    await scenario(browser, 'sdk-init-failure', async ({ page }) => {
      await open(page, checkout.checkoutUrl);
      await waitForStep(page, 'fatal');
      expect(await text(page)).toContain('Click to Pay is unavailable right now');
      expect(await text(page)).toContain('Broken Shop');
      await page.getByRole('button', { name: 'Try again' }).click();
      await waitForStep(page, 'fatal');
      expect(await page.getByRole('button', { name: 'Try again' }).isVisible()).toBe(true);
      await expectNoLeaks(page);
    });
    expect((await getOrder(checkout)).state).toBe('STARTED');
  });

  it.each(WIDTHS)('a session past its expiry (TTL not yet swept) opens on "session expired" (%i px)', async (width) => {
    const checkout = await createCheckout({ value: 1000, reference: 'E2E-EXPIRED' });
    await expireSession(checkout.sessionToken);
    await scenario(
      browser,
      `expired-session-real-${width}`,
      async ({ page }) => {
        await open(page, checkout.checkoutUrl);
        await waitForStep(page, 'expired');
        expect(await page.getByRole('heading', { name: 'Your payment session has expired' }).isVisible()).toBe(true);
        expect(await text(page)).not.toContain('isn’t valid');
        await expectNoSidewaysScroll(page, width, 'expired');
        await expectNoLeaks(page, [checkout.sessionToken]);
      },
      atWidth(width),
    );
    expect((await getOrder(checkout)).state).toBe('STARTED');
  });

  it('a session that expires while the shopper is on the card list: paying says it expired, nothing is charged', async () => {
    const checkout = await createCheckout({ value: 1000, reference: 'E2E-EXPIRES' });
    await scenario(browser, 'expired-session-mid-flow', async ({ page }) => {
      await open(page, checkout.checkoutUrl);
      await signInByEmail(page, 'returning@example.com');
      await enterOtp(page, '123456');
      await waitForStep(page, 'cards');
      await expireSession(checkout.sessionToken);
      await chooseCardAndPay(page, '1111');
      await waitForStep(page, 'expired');
      expect(await text(page)).toContain('expired');
    });
    expect((await getOrder(checkout)).state).toBe('STARTED');
  });

  it.each(WIDTHS)('a made-up session says the link is not valid, not that it expired (%i px)', async (width) => {
    const { baseUrl } = e2e();
    // Well-formed but never issued (looked up, not found), and malformed (never looked up): the same answer.
    for (const [index, madeUp] of [`hs_${'A'.repeat(43)}`, 'not-a-session'].entries()) {
      await scenario(
        browser,
        `invalid-session-${index === 0 ? 'unknown' : 'malformed'}-${width}`,
        async ({ page }) => {
          await open(page, `${baseUrl}/checkout?session=${madeUp}`);
          await waitForStep(page, 'invalid');
          expect(await page.getByRole('heading', { name: 'This payment link isn’t valid' }).isVisible()).toBe(true);
          expect(await page.locator('[data-result]').getAttribute('data-result')).toBe('invalid');
          expect(await text(page)).not.toMatch(/expired/i);
          expect(page.url()).not.toContain(madeUp);
          await expectNoSidewaysScroll(page, width, 'invalid');
          await expectNoLeaks(page, [madeUp]);
        },
        atWidth(width),
      );
    }
  });
});
