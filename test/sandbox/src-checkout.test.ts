import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as createSession } from '../../functions/create-hosted-session/handler.js';
import { documentClient } from '../../lib/composition/aws.js';
import { decryptCheckoutJwe } from '../../lib/core/checkout/jwe.js';
import { payloadKeyVault } from '../../lib/composition/keys.js';
import { luhnCheckDigit } from '../../lib/adapters/sandbox/src/cards.js';
import { invoke } from '../support/invoke.js';
import { pay } from '../support/payments.js';
import { seedWorld } from '../support/seed.js';
import { platformToken } from '../support/tokens.js';
import { CARD_DATA, DPA, enrollment, newSession, signedIn, src } from './src-client.js';

/**
 * The sandbox network's checkout result goes, unmodified, into the real 4.3 handler — paid
 * with the hosted-session token, as the page does — and the sandbox authorizer/3DS decide.
 */
let platform: string;
const secrets = new Set<string>([CARD_DATA.primaryAccountNumber]);

beforeAll(async () => {
  platform = await platformToken();
});

const amount = { transactionAmount: 10, transactionCurrencyCode: 'AED' };
const checkout = (sessionId: string, srcDigitalCardId: string, dpaId = DPA.dpaId) =>
  src('/checkout', { sessionId, srcDigitalCardId, dpaId, transactionAmount: amount });
const reason = (response: { body: { error?: { reason?: string } } }) => response.body.error?.reason;

/** A fresh order paid through 4.3 with its hosted-session token. */
async function payOrder(sdkResult: unknown) {
  const world = await seedWorld();
  const session = await invoke(createSession, {
    method: 'POST',
    path: `/transactions/outlets/${world.outletId}/orders/${world.orderRef}/hosted-sessions`,
    pathParameters: { outletId: world.outletId, orderRef: world.orderRef },
    token: platform,
  });
  secrets.add(session.body.sessionToken);
  return pay(world, session.body.sessionToken, sdkResult);
}

/** Remembers what must never be stored: the token number and cryptogram inside the JWE. */
async function remember(sdkResult: Record<string, unknown>) {
  const payload = JSON.parse(Buffer.from(String(sdkResult.checkoutResponse).split('.')[1]!, 'base64url').toString());
  const plain = JSON.parse(Buffer.from(await decryptCheckoutJwe(payload.encryptedPayload, payloadKeyVault)).toString());
  secrets.add(plain.token.paymentToken);
  secrets.add(plain.dynamicData[0].dynamicDataValue);
  return { payload, plain };
}

describe('checkout → 4.3', () => {
  it('Visa ••1111: the Visa SDK shape, accepted by 4.3 → AUTHORISED', async () => {
    const sessionId = await signedIn();
    secrets.add(sessionId);
    const response = await checkout(sessionId, 'visa-classic');
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(['actionCode', 'checkoutResponse']);
    expect(response.body.actionCode).toBe('SUCCESS');
    const { payload } = await remember(response.body);
    expect(payload.maskedCard).toMatchObject({ srcDigitalCardId: 'visa-classic', panLastFour: '1111' });
    expect(payload.maskedConsumer).toEqual({ emailAddress: 'r***@example.com' });
    const paid = await payOrder(response.body);
    expect(paid.status, paid.raw).toBe(200);
    expect(paid.body).toMatchObject({ state: 'AUTHORISED', paymentMethod: { brand: 'VISA', panLastFour: '1111', tokenLastFour: '3478' } });
  });

  it('Mastercard ••4444: the Mastercard SDK shape (ES256) → AUTHORISED', async () => {
    const sessionId = await signedIn('+971500000001', 'MOBILE_NUMBER');
    const response = await checkout(sessionId, 'mastercard-world');
    expect(response.body).toMatchObject({ checkoutActionCode: 'COMPLETE', network: 'mastercard', headers: expect.any(Object) });
    expect(JSON.parse(Buffer.from(response.body.checkoutResponse.split('.')[0], 'base64url').toString()).alg).toBe('ES256');
    await remember(response.body);
    const paid = await payOrder(response.body);
    expect(paid.body).toMatchObject({ state: 'AUTHORISED', eci: '02', paymentMethod: { brand: 'MASTERCARD', panLastFour: '4444' } });
  });

  it('Visa ••3220 carries ECI 07 → AWAIT_3DS; Visa ••0002 → FAILED (CARD_EXPIRED)', async () => {
    const sessionId = await signedIn();
    const stepUp = (await checkout(sessionId, 'visa-3ds')).body;
    await remember(stepUp);
    const challenged = await payOrder(stepUp);
    expect(challenged.body.state).toBe('AWAIT_3DS');
    expect(challenged.body.threeDs.acsUrl).toContain('/sandbox/3ds/challenge');
    const declined = (await checkout(sessionId, 'visa-expired')).body;
    await remember(declined);
    expect((await payOrder(declined)).body).toMatchObject({ state: 'FAILED', failure: { code: 'CARD_EXPIRED' } });
  });

  it('a guest-enrolled card checks out without OTP, with a derived, stable, Luhn-valid Visa token → AUTHORISED', async () => {
    const sessionId = await newSession();
    secrets.add(sessionId);
    const body = await enrollment({ cardholderName: 'Jane Sandbox' });
    secrets.add(body.encryptedCard as string);
    secrets.add('Jane Sandbox');
    const { card } = (await src('/cards/enroll', { sessionId, ...body })).body;
    const first = (await checkout(sessionId, card.srcDigitalCardId)).body;
    const second = (await checkout(sessionId, card.srcDigitalCardId)).body;
    const { plain } = await remember(first);
    expect((await remember(second)).plain.token.paymentToken).toBe(plain.token.paymentToken);
    const token: string = plain.token.paymentToken;
    expect(token).toMatch(/^4\d{15}$/);
    expect(luhnCheckDigit(token.slice(0, -1))).toBe(token.at(-1));
    expect(first.actionCode).toBe('SUCCESS');
    const paid = await payOrder(first);
    expect(paid.body).toMatchObject({ state: 'AUTHORISED', paymentMethod: { brand: 'VISA', panLastFour: '1111', expiry: '2030-12' } });
  });
});

describe('checkout refusals', () => {
  it('CHECKOUT_FAILED (502) for the documented checkout-failure card', async () => {
    const sessionId = await signedIn('checkout-error@example.com');
    const cards = (await src('/cards', { sessionId })).body.cards;
    expect(cards).toEqual([expect.objectContaining({ srcDigitalCardId: 'visa-checkout-error', panLastFour: '0119' })]);
    const response = await checkout(sessionId, 'visa-checkout-error');
    expect([response.status, reason(response)]).toEqual([502, 'CHECKOUT_FAILED']);
  });

  it('NOT_AUTHENTICATED before the OTP, UNKNOWN_CARD for a card of someone else, INVALID_DPA for another DPA', async () => {
    const anonymous = await newSession();
    await src('/identity-lookup', { sessionId: anonymous, identity: { type: 'EMAIL', value: 'returning@example.com' } });
    const early = await checkout(anonymous, 'visa-classic');
    expect([early.status, reason(early)]).toEqual([401, 'NOT_AUTHENTICATED']);
    const smsOnly = await signedIn('+971500000002', 'MOBILE_NUMBER');
    const foreign = await checkout(smsOnly, 'mastercard-world');
    expect([foreign.status, reason(foreign)]).toEqual([404, 'UNKNOWN_CARD']);
    const otherDpa = await checkout(smsOnly, 'visa-classic', 'another-dpa');
    expect([otherDpa.status, reason(otherDpa)]).toEqual([400, 'INVALID_DPA']);
    const badAmount = await src('/checkout', {
      sessionId: smsOnly,
      srcDigitalCardId: 'visa-classic',
      dpaId: DPA.dpaId,
      transactionAmount: { transactionAmount: -1, transactionCurrencyCode: 'AED' },
    });
    expect([badAmount.status, reason(badAmount)]).toEqual([400, 'INVALID_REQUEST']);
  });
});

describe('nothing sensitive at rest', () => {
  it('no sandbox item holds a card number, token number, cryptogram, session id, JWE or cardholder name', async () => {
    const { Items = [] } = await documentClient.send(new ScanCommand({ TableName: process.env.SANDBOX_TABLE }));
    const srcItems = Items.filter((item) => String(item.pk).startsWith('src#'));
    expect(srcItems.length).toBeGreaterThan(5);
    expect(secrets.size).toBeGreaterThan(15);
    const dump = JSON.stringify(Items);
    for (const secret of secrets) expect(dump).not.toContain(secret);
    for (const item of srcItems) {
      expect(Object.keys(item).sort()).toEqual(['createdAt', 'expiresAt', 'kind', 'pk', 'state', 'version']);
      expect(item.pk).toMatch(/^src#[0-9a-f]{64}$/);
      expect(item.expiresAt - Date.now() / 1000).toBeLessThanOrEqual(30 * 60);
    }
  });
});
