import { generateKeyPairSync } from 'node:crypto';
import { exportJWK } from 'jose';
import { describe, expect, it } from 'vitest';
import type { Principal } from '../../../lib/core/auth/principal.js';
import {
  CheckoutDecryptionFailedError,
  CheckoutExpiredError,
  CheckoutResponseReplayedError,
  CheckoutSignatureInvalidError,
  ClickToPayNotEnabledError,
  DependencyUnavailableError,
  NotFoundError,
  PaymentStateConflictError,
} from '../../../lib/core/errors.js';
import { payWithClickToPay } from '../../../lib/core/payments/pay-with-click-to-pay.js';
import { checkout } from '../support/checkout.js';
import { announced } from '../support/outbox.js';
import { coreWorld, enable, newOrder, platform, recordedMetrics, storedPayment, tenantPrincipal, type CoreWorld, type OrderIds } from '../support/world.js';

/**
 * SPEC 4.3 steps 1–9 (lib/core/payments/pay-with-click-to-pay.ts) with checkout responses exactly
 * as a network signs and encrypts them: verified against the trusted networks' keys, claimed by
 * one payment before any KMS Decrypt (the replay guard), decrypted, checked, authorized.
 */
const pay = (world: CoreWorld, ids: OrderIds, body: Awaited<ReturnType<typeof checkout>>, principal: Principal = platform) =>
  payWithClickToPay(world.payments, principal, ids, body, world.facts);

describe('Click to Pay payment (4.3)', () => {
  it('a verified checkout response is decrypted and authorized: the masked card and the SRC ids are kept, never the token', async () => {
    const world = await coreWorld();
    const { ids } = await newOrder(world);
    const paid = await pay(world, ids, await checkout(world));
    expect(paid).toMatchObject({
      state: 'AUTHORISED',
      eci: '05',
      paymentMethod: { type: 'CLICK_TO_PAY', brand: 'VISA', tokenLastFour: '3478', panLastFour: '1111' },
      srcCheckout: { network: 'visa', srcCorrelationId: expect.any(String) },
    });
    expect(JSON.stringify(await storedPayment(world, ids))).not.toContain('4895370012003478');
    expect(world.keys.unwraps).toBe(1);
    expect(world.acquirer.sends(ids.paymentRef)).toBe(1);
  });

  it('a checkout response pays one payment: presented for another, it is refused as replayed before any decrypt', async () => {
    const metrics = recordedMetrics();
    const world = await coreWorld();
    const body = await checkout(world);
    const first = await newOrder(world);
    await pay(world, first.ids, body);
    const second = await newOrder(world);
    await expect(pay(world, second.ids, body)).rejects.toBeInstanceOf(CheckoutResponseReplayedError);
    expect(world.keys.unwraps).toBe(1);
    expect((await storedPayment(world, second.ids)).state).toBe('STARTED');
    expect(metrics).toContainEqual({ name: 'ReplaysRefused', dimensions: {}, value: 1 });
  });

  it('the same checkout response again for its own payment answers the settled payment, without a decrypt or an authorization', async () => {
    const world = await coreWorld();
    const body = await checkout(world);
    const { ids } = await newOrder(world);
    const paid = await pay(world, ids, body);
    world.clock.advance(2_000);
    expect(await pay(world, ids, body)).toEqual(paid);
    expect(world.keys.unwraps).toBe(1);
    expect(world.acquirer.calls).toHaveLength(1);
  });

  it('a payload that does not decrypt is refused (422), and the refusal is remembered: the repeat costs no second decrypt', async () => {
    const world = await coreWorld();
    const stranger = await exportJWK(generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey);
    const body = await checkout(world, { recipientKey: { ...stranger, kid: await world.keys.currentKid() } });
    const { ids } = await newOrder(world);
    await expect(pay(world, ids, body)).rejects.toBeInstanceOf(CheckoutDecryptionFailedError);
    await expect(pay(world, ids, body)).rejects.toBeInstanceOf(CheckoutDecryptionFailedError);
    expect(world.keys.unwraps).toBe(1);
    expect((await storedPayment(world, ids)).state).toBe('STARTED');
  });

  it('KMS unavailable (503) is not remembered: the same response decrypts on the retry and pays', async () => {
    const world = await coreWorld();
    const body = await checkout(world);
    const { ids } = await newOrder(world);
    world.keys.outage = true;
    await expect(pay(world, ids, body)).rejects.toBeInstanceOf(DependencyUnavailableError);
    world.keys.outage = false;
    expect((await pay(world, ids, body)).state).toBe('AUTHORISED');
  });

  it('a settled payment refuses a new checkout response (409), and remembers that refusal for it', async () => {
    const world = await coreWorld();
    const { ids } = await newOrder(world);
    await pay(world, ids, await checkout(world));
    const another = await checkout(world);
    await expect(pay(world, ids, another)).rejects.toBeInstanceOf(PaymentStateConflictError);
    await expect(pay(world, ids, another)).rejects.toBeInstanceOf(PaymentStateConflictError);
    expect(world.keys.unwraps).toBe(2);
    expect(world.acquirer.sends(ids.paymentRef)).toBe(1);
  });

  it('the sandbox network’s key never pays a production merchant (422 signature invalid)', async () => {
    const world = await coreWorld({ environment: 'production' });
    const { ids } = await newOrder(world);
    await expect(pay(world, ids, await checkout(world, { network: 'sandbox' }))).rejects.toBeInstanceOf(CheckoutSignatureInvalidError);
    expect(world.keys.unwraps).toBe(0);
  });

  it('a sandbox merchant is authorized by the sandbox acquirer, never by the production one', async () => {
    const world = await coreWorld({ environment: 'sandbox' });
    const { ids } = await newOrder(world);
    expect((await pay(world, ids, await checkout(world, { network: 'sandbox' }))).state).toBe('AUTHORISED');
    expect(world.acquirers.sandbox.sends(ids.paymentRef)).toBe(1);
    expect(world.acquirers.production.calls).toEqual([]);
  });

  it('a checkout response older than the maximum age is refused (422 expired) before any decrypt', async () => {
    const world = await coreWorld();
    const { ids } = await newOrder(world);
    const body = await checkout(world, { iat: Math.floor(world.clock.now() / 1000) - 301 });
    await expect(pay(world, ids, body)).rejects.toBeInstanceOf(CheckoutExpiredError);
    expect(world.keys.unwraps).toBe(0);
  });

  it('a Mastercard checkout’s outcome is confirmed to the network in the same write (the outbox); a Visa one is not', async () => {
    const world = await coreWorld();
    const mastercard = await newOrder(world);
    await pay(world, mastercard.ids, await checkout(world, { network: 'mastercard', card: 'mastercard-world' }));
    expect(await announced(world, mastercard.ids)).toEqual(['payment.authorised', 'confirmation:AUTHORISED']);
    const visa = await newOrder(world);
    await pay(world, visa.ids, await checkout(world));
    expect(await announced(world, visa.ids)).toEqual(['payment.authorised']);
  });

  it('with Click to Pay switched off for the tenant, nothing is authorized (403)', async () => {
    const world = await coreWorld();
    const { ids } = await newOrder(world);
    await enable(world.stores, { clickToPay: false, directWallet: false });
    await expect(pay(world, ids, await checkout(world))).rejects.toBeInstanceOf(ClickToPayNotEnabledError);
    expect(world.acquirer.calls).toEqual([]);
  });

  it('another tenant’s payment is not found (404), before any signature check or decrypt', async () => {
    const world = await coreWorld();
    const { ids } = await newOrder(world);
    await expect(pay(world, ids, await checkout(world), tenantPrincipal({ tenantRef: 'another-tenant' }))).rejects.toBeInstanceOf(NotFoundError);
    await expect(pay(world, { ...ids, outletId: 'another-outlet' }, await checkout(world))).rejects.toBeInstanceOf(NotFoundError);
    expect(world.keys.unwraps).toBe(0);
  });
});
