import { beforeAll, describe, expect, it } from 'vitest';
import { decryptCheckoutJwe } from '../../lib/core/checkout/jwe.js';
import { toCredential } from '../../lib/core/checkout/payment-data.js';
import { payloadKeyVault } from '../../lib/composition/keys.js';
import { paymentRepository } from '../../lib/composition/payments.js';
import { authorizer } from '../support/sandbox-acquirer.js';
import { CheckoutPayloadInvalidError } from '../../lib/core/errors.js';
import { assertNotExpired } from '../../lib/core/payments/credential-expiry.js';
import { directWalletCredentialKey } from '../../lib/core/payments/credential-key.js';
import { buildSandboxCheckoutResponse } from '../../lib/adapters/sandbox/checkout-response.js';
import { sandboxCard } from '../../lib/adapters/sandbox/sandbox-cards.js';
import { checkoutResponse, currentRecipientKey, sandboxSigningKey } from '../support/checkout.js';
import { answerChallenge, completeThreeDs, pay, payDirectly } from '../support/payments.js';
import { seedWorld } from '../support/seed.js';
import { tokenData } from '../support/direct-wallet.js';
import { platformToken } from '../support/tokens.js';
import { LEASE_RULE } from '../../lib/core/domain/lease-rule.js';

let token: string;
beforeAll(async () => {
  token = await platformToken();
});

const monthsFromNow = (months: number) => {
  const date = new Date();
  date.setUTCDate(15);
  date.setUTCMonth(date.getUTCMonth() + months);
  return { month: String(date.getUTCMonth() + 1).padStart(2, '0'), year: String(date.getUTCFullYear()) };
};

describe('an expired token or card (SPEC 4.3 step 6): 422, the payment stays payable', () => {
  it('4.3: a token whose expiry month has passed; another card then pays', async () => {
    const world = await seedWorld();
    const past = monthsFromNow(-1);
    const expired = await buildSandboxCheckoutResponse({
      scheme: 'visa',
      signingKey: sandboxSigningKey(),
      recipientKey: await currentRecipientKey(),
      card: { ...sandboxCard('visa-classic'), expiryMonth: past.month, expiryYear: past.year },
    });
    const refused = await pay(world, token, expired);
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('CHECKOUT_PAYLOAD_INVALID');
    expect((await paymentRepository.get(world.orderRef, world.paymentRef))?.state).toBe('STARTED');
    expect(await authorizer.operation(world.paymentRef)).toBeUndefined();
    const other = await pay(world, token, await checkoutResponse());
    expect(other.status).toBe(200);
    expect(other.body.state).toBe('AUTHORISED');
  });

  it('4.4: an expired card; the same payment then takes a valid one', async () => {
    const world = await seedWorld({}, { directWallet: true });
    const past = monthsFromNow(-2);
    const refused = await payDirectly(
      world,
      token,
      tokenData({ token: { paymentToken: '4895370012003478', tokenExpirationMonth: past.month, tokenExpirationYear: past.year } }),
    );
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('CHECKOUT_PAYLOAD_INVALID');
    expect((await paymentRepository.get(world.orderRef, world.paymentRef))?.state).toBe('STARTED');
    expect((await payDirectly(world, token, tokenData())).body.state).toBe('AUTHORISED');
  });

  it('a card is good through the last day of its expiry month, wherever the shopper is (frozen clock)', () => {
    const card = { kind: 'card' as const, expiryMonth: '11', expiryYear: '2026' };
    expect(() => assertNotExpired(card, Date.parse('2026-11-30T23:59:59Z'))).not.toThrow();
    expect(() => assertNotExpired(card, Date.parse('2026-12-01T11:00:00Z'))).not.toThrow(); // still 30 Nov at UTC−12
    expect(() => assertNotExpired(card, Date.parse('2026-12-01T12:00:01Z'))).toThrow(CheckoutPayloadInvalidError);
    expect(() => assertNotExpired({ ...card, expiryMonth: '12', expiryYear: '2025' }, Date.parse('2026-01-15T00:00:00Z'))).toThrow(CheckoutPayloadInvalidError);
    expect(() => assertNotExpired({ ...card, expiryMonth: '01', expiryYear: '2027' }, Date.parse('2026-12-31T00:00:00Z'))).not.toThrow();
  });
});

describe('Direct Wallet sealed for 3DS keeps only what 4.10 needs', () => {
  it('addresses and extra fields are dropped, the JWE stays small, and 4.10 completes', async () => {
    const world = await seedWorld({}, { directWallet: true });
    const bulky = { line1: 'x'.repeat(14_000), city: 'y'.repeat(14_000) }; // 56 KiB in all: under the body limit, over the JWE's
    const awaiting = await payDirectly(
      world,
      token,
      tokenData({ eci: '07', billingAddress: bulky, shippingAddress: bulky, consumerEmailAddress: 'a@example.com' }),
    );
    expect(awaiting.status, JSON.stringify(awaiting.body)).toBe(200);
    expect(awaiting.body.state).toBe('AWAIT_3DS');
    const pending = await paymentRepository.getPendingThreeDs(world.orderRef, world.paymentRef, Date.now());
    expect(pending!.jwe.length).toBeLessThan(2_048); // far below the 32 KiB JWE limit of 4.10
    const sealed = JSON.parse(new TextDecoder().decode(await decryptCheckoutJwe(pending!.jwe, payloadKeyVault)));
    expect(Object.keys(sealed).sort()).toEqual(['dynamicData', 'eci', 'paymentAccountReference', 'token']);
    const { cres } = await answerChallenge(awaiting.body.threeDs, '1234');
    const done = await completeThreeDs(world, token, cres!);
    expect(done.body).toMatchObject({ state: 'AUTHORISED', paymentMethod: { type: 'DIRECT_WALLET', tokenLastFour: '3478' } });
  });
});

describe('a Direct Wallet lease names its credential by a hash', () => {
  it('an expired lease is taken over by the same data, not by another card', async () => {
    const world = await seedWorld({}, { directWallet: true });
    const now = Date.now();
    const credential = directWalletCredentialKey(world.paymentRef, toCredential(tokenData() as never));
    expect(credential).not.toContain('4895370012003478');
    await paymentRepository.acquireLease(world, {
      from: 'STARTED',
      requires: LEASE_RULE.fresh('STARTED'),
      leaseId: 'crashed',
      leaseUntil: now - 1_000,
      now,
      credential,
    });
    const other = await payDirectly(world, token, tokenData({ dynamicData: { dynamicDataValue: 'AnotherCryptogram=' } }));
    expect(other.status).toBe(409);
    const same = await payDirectly(world, token, tokenData());
    expect(same.status, JSON.stringify(same.body)).toBe(200);
    expect(same.body.state).toBe('AUTHORISED');
    expect((await authorizer.operation(world.paymentRef))?.calls).toBe(1);
  });
});
