import { describe, expect, it } from 'vitest';
import { AmountMismatchError, CheckoutPayloadInvalidError, DirectWalletNotEnabledError } from '../../../lib/core/errors.js';
import { coreWorld, enable, newOrder, payDirect, storedPayment } from '../support/world.js';

/** SPEC 4.4 (lib/core/payments/pay-direct-wallet.ts): already-decrypted token data, gated by DIRECT_WALLET. */
describe('Direct Wallet payment (4.4)', () => {
  it('is refused (403) while DIRECT_WALLET is off at platform or tenant level, whatever Click to Pay says', async () => {
    const world = await coreWorld({ clickToPay: true, directWallet: false });
    const { ids } = await newOrder(world);
    await expect(payDirect(world, ids)).rejects.toBeInstanceOf(DirectWalletNotEnabledError);
    expect(world.acquirer.calls).toEqual([]);
  });

  it('an amount other than the order’s is refused (422): the shopper pays what the merchant asked', async () => {
    const world = await coreWorld();
    const { ids } = await newOrder(world);
    await expect(payDirect(world, ids, { amount: { currencyCode: 'AED', value: 9_999 } })).rejects.toBeInstanceOf(AmountMismatchError);
    await expect(payDirect(world, ids, { amount: { currencyCode: 'USD', value: 10_000 } })).rejects.toBeInstanceOf(AmountMismatchError);
    expect((await payDirect(world, ids, { amount: { currencyCode: 'AED', value: 10_000 } })).state).toBe('AUTHORISED');
  });

  it('a declared brand the number contradicts is refused (422): the brand picks the ECI table of the 3DS decision', async () => {
    const world = await coreWorld();
    const { ids } = await newOrder(world);
    await expect(payDirect(world, ids, { brand: 'MASTERCARD' })).rejects.toBeInstanceOf(CheckoutPayloadInvalidError);
    expect(world.acquirer.calls).toEqual([]);
  });

  it('a token is refused (422, before any lease) once its expiry month has passed everywhere on earth — not before', async () => {
    const world = await coreWorld(); // 2026-06-01T10:00Z: still 31 May in UTC−12
    const expiredIn = (month: string) => ({ token: { paymentToken: '4895370012003478', tokenExpirationMonth: month, tokenExpirationYear: '2026' } });
    const april = await newOrder(world);
    await expect(payDirect(world, april.ids, expiredIn('04'))).rejects.toBeInstanceOf(CheckoutPayloadInvalidError);
    expect((await storedPayment(world, april.ids)).version).toBe(1);
    const may = await newOrder(world);
    expect((await payDirect(world, may.ids, expiredIn('05'))).state).toBe('AUTHORISED');
  });

  it('switched back on, the same payment pays: enablement is read on every payment', async () => {
    const world = await coreWorld({ directWallet: false });
    const { ids } = await newOrder(world);
    await expect(payDirect(world, ids)).rejects.toBeInstanceOf(DirectWalletNotEnabledError);
    await enable(world.stores, { clickToPay: true, directWallet: true });
    expect((await payDirect(world, ids)).state).toBe('AUTHORISED');
  });
});
