import { beforeAll, describe, expect, it } from 'vitest';
import { paymentRepository } from '../../lib/composition/payments.js';
import { seedWorld, setTenant } from '../support/seed.js';
import { tokenData } from '../support/direct-wallet.js';
import { platformToken } from '../support/tokens.js';
import { answerChallenge, authorizerCalls, completeThreeDs, payDirectly } from '../support/payments.js';

let token: string;

beforeAll(async () => {
  token = await platformToken();
});

describe('4.4 Direct Wallet', () => {
  it('is refused while DIRECT_WALLET is off for the tenant (403 DIRECT_WALLET_NOT_ENABLED)', async () => {
    const world = await seedWorld({}, { directWallet: false });
    const response = await payDirectly(world, token, tokenData());
    expect(response.status).toBe(403);
    expect(response.body.code).toBe('DIRECT_WALLET_NOT_ENABLED');
  });

  it('authorizes token data with the order amount', async () => {
    const world = await seedWorld({}, { directWallet: true });
    const response = await payDirectly(world, token, tokenData({ brand: 'VISA', amount: { currencyCode: 'AED', value: 1000 } }));
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({
      state: 'AUTHORISED',
      eci: '05',
      paymentMethod: { type: 'DIRECT_WALLET', brand: 'VISA', tokenLastFour: '3478', expiry: '2029-12' },
    });
  });

  it('rejects another amount or currency (422 AMOUNT_MISMATCH) before authorizing', async () => {
    const world = await seedWorld({}, { directWallet: true });
    const value = await payDirectly(world, token, tokenData({ amount: { currencyCode: 'AED', value: 999 } }));
    expect(value.status).toBe(422);
    expect(value.body.code).toBe('AMOUNT_MISMATCH');
    const currency = await payDirectly(world, token, tokenData({ amount: { currencyCode: 'USD', value: 1000 } }));
    expect(currency.body.code).toBe('AMOUNT_MISMATCH');
    expect(authorizerCalls(world.paymentRef)).toBe(0);
  });

  it('accepts PAN data with a valid check digit and rejects a bad one', async () => {
    const world = await seedWorld({}, { directWallet: true });
    const card = { primaryAccountNumber: '4111111111111111', panExpirationMonth: 1, panExpirationYear: 30 };
    const bad = await payDirectly(world, token, tokenData({ token: undefined, card: { ...card, primaryAccountNumber: '4111111111111112' } }));
    expect(bad.status).toBe(400);
    expect(bad.raw).not.toContain('4111111111111112');
    const good = await payDirectly(world, token, tokenData({ token: undefined, card }));
    expect(good.body).toMatchObject({ state: 'AUTHORISED', paymentMethod: { panLastFour: '1111', expiry: '2030-01' } });
  });

  it('rejects data without a cryptogram (422 CHECKOUT_PAYLOAD_INVALID)', async () => {
    const world = await seedWorld({}, { directWallet: true });
    const response = await payDirectly(world, token, tokenData({ dynamicData: undefined }));
    expect(response.status).toBe(422);
    expect(response.body.code).toBe('CHECKOUT_PAYLOAD_INVALID');
  });

  it('steps up on ECI 07, keeps the data sealed to the KMS key, and completes after 3DS', async () => {
    const world = await seedWorld({}, { directWallet: true });
    const awaiting = await payDirectly(world, token, tokenData({ eci: '07' }));
    expect(awaiting.body.state).toBe('AWAIT_3DS');
    const pending = await paymentRepository.getPendingThreeDs(world.orderRef, world.paymentRef, Date.now());
    expect(pending?.source).toBe('DIRECT_WALLET');
    expect(pending?.jwe.split('.')).toHaveLength(5);
    expect(JSON.stringify(pending)).not.toContain('4895370012003478');
    const { cres } = await answerChallenge(awaiting.body.threeDs, '1234');
    const done = await completeThreeDs(world, token, cres!);
    expect(done.body).toMatchObject({ state: 'AUTHORISED', eci: '05', paymentMethod: { type: 'DIRECT_WALLET' } });
  });

  it('still needs Click to Pay to be effectively on (steps 7–9 of 4.3)', async () => {
    const world = await seedWorld({}, { directWallet: true });
    await setTenant(world.tenantRef, { CLICK_TO_PAY: { enabled: true }, DIRECT_WALLET: { enabled: false } });
    expect((await payDirectly(world, token, tokenData())).body.code).toBe('DIRECT_WALLET_NOT_ENABLED');
  });

  it('a production merchant is never authorized by the sandbox acquirer: 502 until a real one is plugged in', async () => {
    const world = await seedWorld({ environment: 'production' }, { directWallet: true });
    const response = await payDirectly(world, token, tokenData());
    expect(response.status).toBe(502);
    expect(response.body.code).toBe('AUTHORIZATION_UNAVAILABLE');
    expect(authorizerCalls(world.paymentRef)).toBe(0); // the sandbox acquirer never saw it
    expect((await paymentRepository.get(world.orderRef, world.paymentRef))?.state).toBe('STARTED');
  });

  it('a production merchant needing 3DS is not sent to the sandbox ACS: 502, retryable, nothing stored', async () => {
    const world = await seedWorld({ environment: 'production' }, { directWallet: true });
    const response = await payDirectly(world, token, tokenData({ eci: '07' }));
    expect(response.status).toBe(502);
    expect(response.body.code).toBe('AUTHORIZATION_UNAVAILABLE');
    expect((await paymentRepository.get(world.orderRef, world.paymentRef))?.state).toBe('STARTED');
    expect(await paymentRepository.getPendingThreeDs(world.orderRef, world.paymentRef, Date.now())).toBeUndefined();
  });
});

const MASTERCARD_TOKEN = { paymentToken: '5204731600014792', tokenExpirationMonth: '08', tokenExpirationYear: '2030' };

/**
 * 4.4's optional `brand` names the scheme whose ECI table decides 3DS (and whose ECI a
 * challenge yields). Declared against the card number's own scheme, a Mastercard `06` (merchant
 * risk: not authenticated) read as Visa's "attempted" would skip the step-up, and a challenge
 * would authorize a Mastercard card with Visa's `05`.
 */
describe('4.4: a declared brand must be the scheme the card number names', () => {
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
