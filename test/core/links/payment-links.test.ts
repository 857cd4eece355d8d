import { describe, expect, it } from 'vitest';
import { ClickToPayNotEnabledError, InvalidRedirectUrlError, InvalidRequestError, NotFoundError, PaymentStateConflictError } from '../../../lib/core/errors.js';
import { readPaymentLink } from '../../../lib/core/links/payment-links.js';
import { cancelLink, linkDeps, newLink, openLink } from '../support/links.js';
import { BASE_URL, coreWorld, enable, OUTLET, payDirect, platform, storedPayment, tenantPrincipal } from '../support/world.js';

/** SPEC 4.14 (lib/core/links/payment-links.ts): create, read (state derived when read), cancel once. */
const DAY = 86_400_000;

describe('creating a payment link', () => {
  it('is allowed while Click to Pay is effectively on: ACTIVE, unguessable ref, 7 days by default', async () => {
    const world = await coreWorld();
    const link = await newLink(world, { description: 'Invoice 7' });
    expect(link).toMatchObject({ state: 'ACTIVE', url: `${BASE_URL}/pay/${link.linkRef}`, expiresAt: new Date(world.clock.now() + 7 * DAY).toISOString() });
    expect(link.linkRef).toMatch(/^pl_[A-Za-z0-9_-]{22}$/);
  });

  it('is refused (403) while Click to Pay is off for the tenant: tenant enablement turns link generation on', async () => {
    const world = await coreWorld({ clickToPay: false, directWallet: false });
    await expect(newLink(world)).rejects.toBeInstanceOf(ClickToPayNotEnabledError);
  });

  it('an expiry in the past or beyond 30 days is refused (400); exactly 30 days is allowed', async () => {
    const world = await coreWorld();
    const at = (ms: number) => new Date(world.clock.now() + ms).toISOString();
    await expect(newLink(world, { expiresAt: at(0) })).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(newLink(world, { expiresAt: at(30 * DAY + 1) })).rejects.toBeInstanceOf(InvalidRequestError);
    expect((await newLink(world, { expiresAt: at(30 * DAY) })).expiresAt).toBe(at(30 * DAY));
  });

  it('a returnUrl outside the merchant’s redirect origins is refused (422)', async () => {
    const world = await coreWorld();
    await expect(newLink(world, { returnUrl: 'https://evil.example/back' })).rejects.toBeInstanceOf(InvalidRedirectUrlError);
    expect((await newLink(world, { returnUrl: 'https://shop.example/back' })).returnUrl).toBe('https://shop.example/back');
  });
});

describe('reading a payment link', () => {
  it('its state is derived when read: ACTIVE, then EXPIRED by the clock alone; PAID once its order’s payment is authorised, whatever the link says', async () => {
    const world = await coreWorld();
    const link = await newLink(world, { expiresAt: new Date(world.clock.now() + DAY).toISOString() });
    const read = () => readPaymentLink(linkDeps(world), platform, OUTLET, link.linkRef, BASE_URL);
    const { ids } = await openLink(world, link.linkRef);
    expect((await read()).state).toBe('ACTIVE');
    await payDirect(world, ids);
    world.clock.advance(2 * DAY);
    expect(await read()).toMatchObject({ state: 'PAID', orderRef: ids.orderRef });
    const unpaid = await newLink(world, { expiresAt: new Date(world.clock.now() + DAY).toISOString() });
    world.clock.advance(DAY);
    expect((await readPaymentLink(linkDeps(world), platform, OUTLET, unpaid.linkRef, BASE_URL)).state).toBe('EXPIRED');
  });

  it('another tenant’s or outlet’s link answers 404, exactly like one that does not exist', async () => {
    const world = await coreWorld();
    const link = await newLink(world);
    await expect(readPaymentLink(linkDeps(world), tenantPrincipal({ tenantRef: 'another' }), OUTLET, link.linkRef, BASE_URL)).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(readPaymentLink(linkDeps(world), platform, 'another-outlet', link.linkRef, BASE_URL)).rejects.toBeInstanceOf(NotFoundError);
    await expect(readPaymentLink(linkDeps(world), platform, OUTLET, 'pl_AAAAAAAAAAAAAAAAAAAAAA', BASE_URL)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('cancelling a payment link', () => {
  it('ACTIVE → CANCELLED once; a second cancel is told the link is already cancelled (409)', async () => {
    const world = await coreWorld();
    const link = await newLink(world);
    expect(await cancelLink(world, link.linkRef)).toMatchObject({ state: 'CANCELLED' });
    await expect(cancelLink(world, link.linkRef)).rejects.toMatchObject({ code: 'PAYMENT_STATE_CONFLICT', message: 'The payment link is already cancelled.' });
  });

  it('the same cancel request again (same Idempotency-Key, its answer lost) is answered 200 as that cancel', async () => {
    const world = await coreWorld();
    const link = await newLink(world);
    await cancelLink(world, link.linkRef, 'key-1');
    expect(await cancelLink(world, link.linkRef, 'key-1')).toMatchObject({ state: 'CANCELLED' });
    await expect(cancelLink(world, link.linkRef, 'key-2')).rejects.toBeInstanceOf(PaymentStateConflictError);
  });

  it('only from ACTIVE: an expired or paid link is not cancelled, and the 409 says what the link is', async () => {
    const world = await coreWorld();
    const paid = await newLink(world);
    const { ids } = await openLink(world, paid.linkRef);
    await payDirect(world, ids);
    await expect(cancelLink(world, paid.linkRef)).rejects.toMatchObject({ message: expect.stringContaining('has been paid') });
    const expiring = await newLink(world, { expiresAt: new Date(world.clock.now() + DAY).toISOString() });
    world.clock.advance(DAY);
    await expect(cancelLink(world, expiring.linkRef)).rejects.toMatchObject({ message: expect.stringContaining('has expired') });
  });

  it('a cancelled link’s order takes no payment: the payment that sees the cancel makes it final and gives up (409), the acquirer never hears of it', async () => {
    const world = await coreWorld();
    const link = await newLink(world);
    const { ids } = await openLink(world, link.linkRef);
    await cancelLink(world, link.linkRef, 'key-1');
    await expect(payDirect(world, ids)).rejects.toMatchObject({ code: 'PAYMENT_STATE_CONFLICT', message: 'The payment link of this order was cancelled.' });
    expect(world.acquirer.calls).toEqual([]);
    expect((await storedPayment(world, ids)).state).toBe('STARTED');
    expect(await world.stores.links.get(link.linkRef)).toMatchObject({ cancelFinalAt: expect.any(String) });
    // The cancel, if it came back to undo itself now, finds it final: it stands.
    expect(await world.stores.links.undoCancel(link.linkRef, (await world.stores.links.get(link.linkRef))!.cancelId!)).toBe('final');
  });

  it('switching Click to Pay off does not stop a cancel', async () => {
    const world = await coreWorld();
    const link = await newLink(world);
    await enable(world.stores, { clickToPay: false, directWallet: false });
    expect((await cancelLink(world, link.linkRef)).state).toBe('CANCELLED');
  });
});
