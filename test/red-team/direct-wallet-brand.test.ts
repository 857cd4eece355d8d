import { beforeAll, describe, expect, it } from 'vitest';
import { tokenData } from '../support/direct-wallet.js';
import { authorizerCalls, payDirectly } from '../support/payments.js';
import { seedWorld } from '../support/seed.js';
import { platformToken } from '../support/tokens.js';

/**
 * 4.4's optional `brand` names the scheme whose ECI table decides 3DS (and whose ECI a
 * challenge yields). Declared against the card number's own scheme, a Mastercard `06` (merchant
 * risk: not authenticated) read as Visa's "attempted" would skip the step-up, and a challenge
 * would authorize a Mastercard card with Visa's `05`.
 */
let token: string;
beforeAll(async () => {
  token = await platformToken();
});

const MASTERCARD_TOKEN = { paymentToken: '5204731600014792', tokenExpirationMonth: '08', tokenExpirationYear: '2030' };

describe('4.4 brand confusion', () => {
  it('a declared brand the card number contradicts is 422 CHECKOUT_PAYLOAD_INVALID, never authorized', async () => {
    const world = await seedWorld({}, { directWallet: true });
    const response = await payDirectly(world, token, tokenData({ token: MASTERCARD_TOKEN, brand: 'VISA', eci: '06' }));
    expect(response.status).toBe(422);
    expect(response.body.code).toBe('CHECKOUT_PAYLOAD_INVALID');
    expect(authorizerCalls(world.paymentRef)).toBe(0);
  });

  it('the brand the number names may be declared (and a Mastercard 06 steps up)', async () => {
    const world = await seedWorld({}, { directWallet: true });
    const response = await payDirectly(world, token, tokenData({ token: MASTERCARD_TOKEN, brand: 'MASTERCARD', eci: '06' }));
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({ state: 'AWAIT_3DS', paymentMethod: { brand: 'MASTERCARD' } });
  });
});
