import { DecryptCommand } from '@aws-sdk/client-kms';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { kmsClient } from '../../lib/composition/aws.js';
import { SANDBOX_MASTERCARD_ISS } from '../../lib/adapters/sandbox/checkout-response.js';
import { checkoutResponse, sandboxSigningKey } from '../support/checkout.js';
import { pay } from '../support/payments.js';
import { seedWorld } from '../support/seed.js';
import { platformToken } from '../support/tokens.js';
import { VISA_NETWORK_KID } from '../fixtures/network-checkout-responses.js';

/**
 * Issue 10 items 1–2 through the 4.3 handler: the sandbox SRC sends each brand's real shape,
 * the payment records the cryptogram's type (never its value), Mastercard's ECI 06 steps up
 * under risk-based, and a network-assigned kid nobody registered is decrypted by the key trial.
 */
let token: string;
beforeAll(async () => {
  token = await platformToken();
});
afterEach(() => vi.restoreAllMocks());

const mastercard = (eci?: string) =>
  checkoutResponse({ scheme: 'mastercard', card: 'mastercard-world', signingKey: sandboxSigningKey('ES256'), ...(eci ? { eci } : {}) });
const header = (sdkResult: Record<string, unknown>) =>
  JSON.parse(Buffer.from(String(sdkResult.checkoutResponse).split('.')[0]!, 'base64url').toString()) as Record<string, unknown>;

describe('real payload shapes through 4.3', () => {
  it('Visa: long-form cryptogram type recorded, PAR from the masked card (the payload omits it)', async () => {
    const world = await seedWorld();
    const response = await pay(world, token, await checkoutResponse());
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({
      state: 'AUTHORISED',
      eci: '05',
      paymentMethod: { cryptogramType: 'CARD_APPLICATION_CRYPTOGRAM_LONG_FORM', paymentAccountReference: 'V0010013819219553391925592151' },
    });
  });

  it('Mastercard: iss in the JWS header is accepted, the short-form type recorded', async () => {
    const world = await seedWorld();
    const sdkResult = await mastercard();
    expect(header(sdkResult).iss).toBe(SANDBOX_MASTERCARD_ISS);
    const response = await pay(world, token, sdkResult);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({
      state: 'AUTHORISED',
      eci: '02',
      paymentMethod: { brand: 'MASTERCARD', cryptogramType: 'CARD_APPLICATION_CRYPTOGRAM_SHORT_FORM' },
    });
  });

  it('Mastercard ECI 06 (payload fetched > 5 min after authentication) steps up under risk-based; 01 (attempted) does not', async () => {
    const late = await seedWorld();
    expect((await pay(late, token, await mastercard('06'))).body.state).toBe('AWAIT_3DS');
    const attempted = await seedWorld();
    expect((await pay(attempted, token, await mastercard('01'))).body.state).toBe('AUTHORISED');
    const visaAttempted = await seedWorld();
    expect((await pay(visaAttempted, token, await checkoutResponse({ eci: '06' }))).body.state).toBe('AUTHORISED');
  });
});

describe('a network-assigned JWE kid through 4.3', () => {
  it('unregistered: the current payload key decrypts it by trial with one Decrypt, and the payment is authorised', async () => {
    const send = vi.spyOn(kmsClient, 'send');
    const world = await seedWorld();
    const response = await pay(world, token, await checkoutResponse({ recipientKid: VISA_NETWORK_KID }));
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.state).toBe('AUTHORISED');
    expect(send.mock.calls.filter(([command]) => command instanceof DecryptCommand)).toHaveLength(1);
  });
});
