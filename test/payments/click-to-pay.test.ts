import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { CompactSign, exportJWK, generateKeyPair, importJWK } from 'jose';
import { DecryptCommand } from '@aws-sdk/client-kms';
import { documentClient, kmsClient } from '../../lib/composition/aws.js';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { handler as getOrder } from '../../functions/get-order/handler.js';
import { paymentDeps, paymentRepository } from '../../lib/composition/payments.js';
import { authorizer } from '../support/sandbox-acquirer.js';
import { invoke } from '../support/invoke.js';
import { seedWorld, setTenant } from '../support/seed.js';
import { platformToken, tenantToken } from '../support/tokens.js';
import { checkoutResponse, currentRecipientKey, sandboxSigningKey } from '../support/checkout.js';
import { answerChallenge, authorizerCalls, completeThreeDs, cresFor, lookupCalls, pay, strangerCres } from '../support/payments.js';
import { LEASE_RULE } from '../../lib/core/domain/lease-rule.js';

let token: string;
const calls = authorizerCalls;

beforeAll(async () => {
  token = await platformToken();
});

describe('4.3 happy paths', () => {
  it('authorizes a Visa checkout response and the order follows the payment', async () => {
    const world = await seedWorld();
    const response = await pay(world, token, await checkoutResponse());
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({
      paymentRef: world.paymentRef,
      orderRef: world.orderRef,
      outletId: world.outletId,
      state: 'AUTHORISED',
      amount: { currencyCode: 'AED', value: 1000 },
      paymentMethod: {
        type: 'CLICK_TO_PAY',
        brand: 'VISA',
        tokenLastFour: '3478',
        panLastFour: '1111',
        expiry: '2029-12',
        paymentAccountReference: 'V0010013819219553391925592151',
      },
      eci: '05',
      authorization: { resultCode: '00' },
    });
    expect(response.body.authorization.code).toMatch(/^[0-9A-F]{6}$/);
    expect(response.body.threeDs).toBeUndefined();
    expect(response.body.failure).toBeUndefined();
    const order = await invoke(getOrder, {
      path: `/transactions/outlets/${world.outletId}/orders/${world.orderRef}`,
      pathParameters: { outletId: world.outletId, orderRef: world.orderRef },
      token,
    });
    expect(order.body.state).toBe('AUTHORISED');
    expect(order.body.payments[0]).toEqual(response.body);
  });

  it('accepts the Mastercard shape (ES256) and captures a PURCHASE order', async () => {
    const { sandboxSigningKey } = await import('../support/checkout.js');
    const purchase = await seedWorld();
    // A PURCHASE order through the real handler.
    const { handler: createOrder } = await import('../../functions/create-order/handler.js');
    const created = await invoke(createOrder, {
      method: 'POST',
      path: `/transactions/outlets/${purchase.outletId}/orders`,
      pathParameters: { outletId: purchase.outletId },
      token,
      body: { action: 'PURCHASE', amount: { currencyCode: 'USD', value: 2500 } },
    });
    const ids = { outletId: purchase.outletId, orderRef: created.body.orderRef, paymentRef: created.body.payments[0].paymentRef };
    const sdkResult = await checkoutResponse({ scheme: 'mastercard', card: 'mastercard-world', signingKey: sandboxSigningKey('ES256') });
    expect(sdkResult.checkoutActionCode).toBe('COMPLETE');
    const response = await pay(ids, token, sdkResult);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({ state: 'CAPTURED', eci: '02', paymentMethod: { brand: 'MASTERCARD', tokenLastFour: '4792' } });
  });

  it('records payer_ip when given, the source IP otherwise, and rejects a non-IP', async () => {
    const world = await seedWorld();
    const bad = await pay(world, token, await checkoutResponse(), { payer_ip: '999.1.1.1' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].path).toBe('query.payer_ip');
    const good = await pay(world, token, await checkoutResponse(), { payer_ip: '2001:db8::1' });
    expect(good.status).toBe(200);
    expect((await paymentRepository.get(world.orderRef, world.paymentRef))?.payerIp).toBe('2001:db8::1');
    const other = await seedWorld();
    await pay(other, token, await checkoutResponse());
    expect((await paymentRepository.get(other.orderRef, other.paymentRef))?.payerIp).toBe('203.0.113.7');
  });

  it('works with a hosted-session token for its own order', async () => {
    const world = await seedWorld();
    const { handler: createSession } = await import('../../functions/create-hosted-session/handler.js');
    const session = await invoke(createSession, {
      method: 'POST',
      path: `/transactions/outlets/${world.outletId}/orders/${world.orderRef}/hosted-sessions`,
      pathParameters: { outletId: world.outletId, orderRef: world.orderRef },
      token,
    });
    const response = await pay(world, session.body.sessionToken, await checkoutResponse());
    expect(response.status).toBe(200);
    expect(response.body.state).toBe('AUTHORISED');
  });
});

describe('exactly-once authorization', () => {
  it('returns the stored result for the same payment and response, without a second authorization', async () => {
    const world = await seedWorld();
    const sdkResult = await checkoutResponse();
    const first = await pay(world, token, sdkResult);
    const second = await pay(world, token, sdkResult);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(calls(world.paymentRef)).toBe(1);
  });

  it('refuses the same checkout response for another payment (409 CHECKOUT_RESPONSE_REPLAYED)', async () => {
    const [a, b] = [await seedWorld(), await seedWorld()];
    const sdkResult = await checkoutResponse();
    expect((await pay(a, token, sdkResult)).status).toBe(200);
    // Step 4 before step 5: a replay, or the same response again, costs no KMS Decrypt (a shared quota).
    const decrypts = vi.spyOn(kmsClient, 'send');
    const replay = await pay(b, token, sdkResult);
    expect(replay.status).toBe(409);
    expect(replay.body.code).toBe('CHECKOUT_RESPONSE_REPLAYED');
    expect(calls(b.paymentRef)).toBe(0);
    expect((await pay(a, token, sdkResult)).status).toBe(200); // the same request again: the stored outcome
    expect(decrypts.mock.calls.filter(([command]) => command instanceof DecryptCommand)).toHaveLength(0);
    decrypts.mockRestore();
  });

  it('50 concurrent submissions of one payment end in exactly one authorization', async () => {
    const world = await seedWorld();
    const sdkResult = await checkoutResponse();
    const responses = await Promise.all(Array.from({ length: 50 }, () => pay(world, token, sdkResult)));
    const statuses = responses.map((r) => r.status);
    expect(
      statuses.every((s) => s === 200 || s === 409),
      statuses.join(','),
    ).toBe(true);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
    for (const r of responses.filter((r) => r.status === 409)) expect(r.body.code).toBe('PAYMENT_STATE_CONFLICT');
    expect(calls(world.paymentRef)).toBe(1);
    expect((await paymentRepository.get(world.orderRef, world.paymentRef))?.state).toBe('AUTHORISED');
  });

  it('50 concurrent submissions of different responses for one payment also authorize once', async () => {
    const world = await seedWorld();
    const results = await Promise.all(Array.from({ length: 50 }, async () => pay(world, token, await checkoutResponse())));
    expect(results.filter((r) => r.status === 200 && r.body.state === 'AUTHORISED').length).toBeGreaterThanOrEqual(1);
    expect(results.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    expect(calls(world.paymentRef)).toBe(1);
  });

  it('a lease its holder never gave back is taken over after expiry by the same checkout response: the acquirer is asked first', async () => {
    const world = await seedWorld();
    const sdkResult = await checkoutResponse();
    // The first attempt's authorizer call fails and the lease cannot be parked (as if the
    // process died there): the payment keeps a live lease that nobody will finish.
    vi.mocked(authorizer.authorize).mockRejectedValueOnce(new Error('connection reset')); // the shared spy (support/payments.ts)
    const park = vi.spyOn(paymentRepository, 'park').mockRejectedValueOnce(new Error('process died'));
    paymentDeps.settings.leaseMs = 300;
    try {
      const first = await pay(world, token, sdkResult);
      expect(first.status).toBe(502);
      expect((await paymentRepository.get(world.orderRef, world.paymentRef))?.state).toBe('PROCESSING');
      const early = await pay(world, token, sdkResult);
      expect(early.status).toBe(409);
      expect(early.body.detail).toMatch(/being processed/);
      expect(Number(early.headers['Retry-After'])).toBeGreaterThanOrEqual(1);
      await new Promise((resolve) => setTimeout(resolve, 400));
      const lookups = lookupCalls(world.paymentRef);
      const retry = await pay(world, token, sdkResult);
      expect(retry.status, JSON.stringify(retry.body)).toBe(200);
      expect(retry.body.state).toBe('AUTHORISED');
      expect(lookupCalls(world.paymentRef)).toBe(lookups + 1);
      expect((await authorizer.operation(world.paymentRef))?.calls).toBe(1);
    } finally {
      paymentDeps.settings.leaseMs = 30_000;
      park.mockRestore();
    }
  });

  it('an expired lease is not taken over with another checkout response (409), and nothing is authorized', async () => {
    const world = await seedWorld();
    const now = Date.now();
    await paymentRepository.acquireLease(world, {
      from: 'STARTED',
      requires: LEASE_RULE.fresh('STARTED'),
      leaseId: 'crashed',
      leaseUntil: now - 1000,
      now,
      credential: 'checkout:someone-else',
    });
    const other = await pay(world, token, await checkoutResponse());
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('PAYMENT_STATE_CONFLICT');
    expect(other.body.detail).toMatch(/another payment credential/);
    expect(calls(world.paymentRef)).toBe(0);
  });

  it('a live lease held by another attempt answers 409 with Retry-After and authorizes nothing', async () => {
    const world = await seedWorld();
    const now = Date.now();
    await paymentRepository.acquireLease(world, {
      from: 'STARTED',
      requires: LEASE_RULE.fresh('STARTED'),
      leaseId: 'busy',
      leaseUntil: now + 60_000,
      now,
      credential: 'checkout:busy',
    });
    const response = await pay(world, token, await checkoutResponse());
    expect(response.status).toBe(409);
    expect(response.body.detail).toMatch(/being processed/);
    expect(Number(response.headers['Retry-After'])).toBeGreaterThan(50);
    expect(calls(world.paymentRef)).toBe(0);
  });
});

describe('sandbox authorizer outcomes (SPEC §5)', () => {
  afterEach(() => {
    paymentDeps.settings.authorizerTimeoutMs = 10_000;
    paymentDeps.settings.inFlightMs = 10_000;
  });

  it.each([
    [1051, 'INSUFFICIENT_FUNDS'],
    [2005, 'DO_NOT_HONOUR'],
  ])('amount %i is declined %s (200, FAILED)', async (amount, code) => {
    const world = await seedWorld({}, { amount });
    const response = await pay(world, token, await checkoutResponse());
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ state: 'FAILED', failure: { code } });
    expect(response.body.authorization).toBeUndefined();
  });

  it('a token ending 0002 is declined CARD_EXPIRED', async () => {
    const world = await seedWorld();
    const response = await pay(world, token, await checkoutResponse({ card: 'visa-expired' }));
    expect(response.body).toMatchObject({ state: 'FAILED', failure: { code: 'CARD_EXPIRED' } });
  });

  it('amount ending 99 times out: 502; the same checkout response is asked about, not re-sent, while the first could still land', async () => {
    paymentDeps.settings.authorizerTimeoutMs = 150;
    paymentDeps.settings.inFlightMs = 2_000; // generous: the early retry below must fall inside it, even on a busy machine
    const world = await seedWorld({}, { amount: 1099 });
    const sdkResult = await checkoutResponse();
    const first = await pay(world, token, sdkResult);
    expect(first.status).toBe(502);
    expect(first.body.code).toBe('AUTHORIZATION_UNAVAILABLE');
    expect(Number(first.headers['Retry-After'])).toBeGreaterThanOrEqual(1);
    const order = await invoke(getOrder, {
      path: `/transactions/outlets/${world.outletId}/orders/${world.orderRef}`,
      pathParameters: { outletId: world.outletId, orderRef: world.orderRef },
      token,
    });
    expect(order.body.state).toBe('STARTED'); // the parked lease shows as the state it came from

    const early = await pay(world, token, sdkResult);
    expect(early.status).toBe(502); // asked the acquirer (nothing), and did not send it again
    expect(lookupCalls(world.paymentRef)).toBe(1);
    expect(calls(world.paymentRef)).toBe(1);

    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const later = await pay(world, token, sdkResult);
    expect(later.status).toBe(502); // the in-flight window is over: authorized again (the sandbox hangs again)
    expect(lookupCalls(world.paymentRef)).toBe(2);
    expect(calls(world.paymentRef)).toBe(2);
    expect(await authorizer.operation(world.paymentRef)).toBeUndefined(); // the acquirer never performed it
  });

  it('another card after a timeout is refused while the first may have been charged', async () => {
    paymentDeps.settings.authorizerTimeoutMs = 150;
    const world = await seedWorld({}, { amount: 1099 });
    expect((await pay(world, token, await checkoutResponse())).status).toBe(502);
    const other = await pay(world, token, await checkoutResponse({ card: 'mastercard-world' }));
    expect(other.status).toBe(409);
    expect(other.body.detail).toMatch(/another payment credential/);
    expect(Number(other.headers['Retry-After'])).toBeGreaterThan(1);
    expect(calls(world.paymentRef)).toBe(1);
  });
});

describe('3DS (SPEC 4.3 step 8, 4.10)', () => {
  it('ECI 07 under risk-based → AWAIT_3DS; code 1234 → AUTHORISED with ECI 05', async () => {
    const world = await seedWorld();
    const awaiting = await pay(world, token, await checkoutResponse({ card: 'visa-3ds' }));
    expect(awaiting.status).toBe(200);
    expect(awaiting.body.state).toBe('AWAIT_3DS');
    expect(awaiting.body.threeDs).toMatchObject({ acsUrl: 'https://pay.test.example/sandbox/3ds/challenge' });
    expect(awaiting.body.threeDs.transactionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(awaiting.body.authorization).toBeUndefined();
    expect(calls(world.paymentRef)).toBe(0);

    const early = await completeThreeDs(world, token, cresFor(awaiting.body.threeDs, 'Y'));
    expect(early.status).toBe(409); // the ACS has not answered yet: a forged "Y" changes nothing

    const { page, cres } = await answerChallenge(awaiting.body.threeDs, '1234');
    expect(page.status).toBe(200);
    expect(page.headers['Content-Security-Policy']).toContain("default-src 'none'");
    const done = await completeThreeDs(world, token, cres!);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ state: 'AUTHORISED', eci: '05', paymentMethod: { tokenLastFour: '7701' } });
    expect(done.body.threeDs).toBeUndefined();
    expect(calls(world.paymentRef)).toBe(1);
    expect(await paymentRepository.getPendingThreeDs(world.orderRef, world.paymentRef, Date.now())).toBeUndefined();

    // The same cres again (its answer lost, say) gets the outcome, and authorizes nothing more.
    const again = await completeThreeDs(world, token, cres!);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(done.body);
    expect(calls(world.paymentRef)).toBe(1);
  });

  it('a wrong code → FAILED THREE_DS_FAILED, no authorization; the ACS answers only once', async () => {
    const world = await seedWorld();
    const awaiting = await pay(world, token, await checkoutResponse({ card: 'visa-3ds' }));
    const { cres } = await answerChallenge(awaiting.body.threeDs, '0000');
    const second = await answerChallenge(awaiting.body.threeDs, '1234');
    expect(second.page.status).toBe(409);
    const done = await completeThreeDs(world, token, cres!);
    expect(done.body).toMatchObject({ state: 'FAILED', failure: { code: 'THREE_DS_FAILED' } });
    expect(calls(world.paymentRef)).toBe(0);
  });

  it('a missing ECI steps up under risk-based; policy never does not; always steps up on ECI 06', async () => {
    const missing = await seedWorld();
    expect((await pay(missing, token, await checkoutResponse({ eci: undefined, card: 'visa-3ds' }))).body.state).toBe('AWAIT_3DS');
    const never = await seedWorld({ threeDsPolicy: 'never' });
    expect((await pay(never, token, await checkoutResponse({ card: 'visa-3ds' }))).body.state).toBe('AUTHORISED');
    const always = await seedWorld({ threeDsPolicy: 'always' });
    expect((await pay(always, token, await checkoutResponse({ eci: '06' }))).body.state).toBe('AWAIT_3DS');
    const alwaysFull = await seedWorld({ threeDsPolicy: 'always' });
    expect((await pay(alwaysFull, token, await checkoutResponse({ eci: '05' }))).body.state).toBe('AUTHORISED');
  });

  it('keeps the JWE for an hour; a challenge answered after that → FAILED THREE_DS_EXPIRED, no authorization', async () => {
    const world = await seedWorld();
    const before = Math.floor(Date.now() / 1000);
    const awaiting = await pay(world, token, await checkoutResponse({ card: 'visa-3ds' }));
    const pending = await paymentRepository.getPendingThreeDs(world.orderRef, world.paymentRef, Date.now());
    expect(pending!.expiresAt).toBeGreaterThanOrEqual(before + 3600);
    expect(pending!.expiresAt).toBeLessThanOrEqual(before + 3602);
    // An hour later: the item may still exist (TTL deletion is lazy) but counts as absent.
    await documentClient.send(
      new UpdateCommand({
        TableName: process.env.ORDERS_TABLE,
        Key: { pk: `ORDER#${world.orderRef}`, sk: `PAYMENT#${world.paymentRef}#3DS` },
        UpdateExpression: 'SET expiresAt = :past',
        ExpressionAttributeValues: { ':past': before - 1 },
      }),
    );
    await documentClient.send(
      new UpdateCommand({
        TableName: process.env.SANDBOX_TABLE,
        Key: { pk: `SANDBOX_ACS#${awaiting.body.threeDs.transactionId}` },
        UpdateExpression: 'SET expiresAt = :past',
        ExpressionAttributeValues: { ':past': before - 1 },
      }),
    );
    const { page } = await answerChallenge(awaiting.body.threeDs, '1234');
    expect(page.status).toBe(404); // the ACS no longer knows the challenge
    const done = await completeThreeDs(world, token, cresFor(awaiting.body.threeDs, 'Y'));
    expect(done.body).toMatchObject({ state: 'FAILED', failure: { code: 'THREE_DS_EXPIRED' } });
    expect(calls(world.paymentRef)).toBe(0);
  });

  it('4.10 rejects a payment not in AWAIT_3DS, and a cres of another transaction', async () => {
    const world = await seedWorld();
    const fakeCres = strangerCres();
    const notWaiting = await completeThreeDs(world, token, fakeCres);
    expect(notWaiting.status).toBe(409);
    await pay(world, token, await checkoutResponse({ card: 'visa-3ds' }));
    const wrong = await completeThreeDs(world, token, fakeCres);
    expect(wrong.status).toBe(400);
    const garbage = await completeThreeDs(world, token, 'bm90LWEtY3Jlcw');
    expect(garbage.status).toBe(400);
  });

  it('the ACS page refuses unknown challenges', async () => {
    const { page } = await answerChallenge({ acsUrl: '', creq: 'garbage' }, '1234');
    expect(page.status).toBe(400);
  });
});

describe('4.3 refusals', () => {
  it('Click to Pay disabled for the tenant → 403 CLICK_TO_PAY_NOT_ENABLED', async () => {
    const world = await seedWorld();
    await setTenant(world.tenantRef, { CLICK_TO_PAY: { enabled: false } });
    const response = await pay(world, token, await checkoutResponse());
    expect(response.status).toBe(403);
    expect(response.body.code).toBe('CLICK_TO_PAY_NOT_ENABLED');
    expect(calls(world.paymentRef)).toBe(0);
  });

  it('a payment already FAILED cannot be paid with a new response (409 PAYMENT_STATE_CONFLICT)', async () => {
    const world = await seedWorld({}, { amount: 1051 });
    expect((await pay(world, token, await checkoutResponse())).body.state).toBe('FAILED');
    const again = await pay(world, token, await checkoutResponse());
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('PAYMENT_STATE_CONFLICT');
  });

  it('the sandbox network is not trusted for a production merchant', async () => {
    const world = await seedWorld({ environment: 'production' });
    const response = await pay(world, token, await checkoutResponse());
    expect(response.status).toBe(422);
    expect(response.body.code).toBe('CHECKOUT_SIGNATURE_INVALID');
  });

  it('a payload encrypted to a key that is not ours → 422 CHECKOUT_DECRYPTION_FAILED', async () => {
    const world = await seedWorld();
    const { publicKey } = await generateKeyPair('RSA-OAEP-256', { extractable: true });
    const stranger = { ...(await exportJWK(publicKey)), kid: (await currentRecipientKey()).kid };
    const response = await pay(world, token, await checkoutResponse({ recipientKey: stranger }));
    expect(response.status).toBe(422);
    expect(response.body.code).toBe('CHECKOUT_DECRYPTION_FAILED');
    expect(response.body.detail).toBe('The checkout payload could not be decrypted.');
  });

  it('a stale checkout response → 422 CHECKOUT_EXPIRED; a future one too', async () => {
    const world = await seedWorld();
    const stale = await pay(world, token, await checkoutResponse({ iat: Math.floor(Date.now() / 1000) - 901 }));
    expect(stale.body.code).toBe('CHECKOUT_EXPIRED');
    const future = await pay(world, token, await checkoutResponse({ iat: Math.floor(Date.now() / 1000) + 600 }));
    expect(future.body.code).toBe('CHECKOUT_EXPIRED');
  });

  it('a network exp an hour past or nbf an hour ahead (header or payload) → 422 CHECKOUT_EXPIRED; the payment stays payable', async () => {
    const world = await seedWorld();
    const signingKey = sandboxSigningKey();
    const key = await importJWK(signingKey, 'RS256');
    const nowS = Math.floor(Date.now() / 1000);
    /** The sandbox network's response, re-signed by the same key with the claims added. */
    const resigned = async (where: 'header' | 'payload', claims: Record<string, number>) => {
      const sdkResult = await checkoutResponse({ signingKey });
      const [h, p] = String(sdkResult.checkoutResponse).split('.');
      const decode = (segment: string) => JSON.parse(Buffer.from(segment, 'base64url').toString()) as Record<string, unknown>;
      const header = { ...decode(h!), ...(where === 'header' ? claims : {}) };
      const payload = { ...decode(p!), ...(where === 'payload' ? claims : {}) };
      const jws = await new CompactSign(new TextEncoder().encode(JSON.stringify(payload))).setProtectedHeader(header as never).sign(key);
      return { ...sdkResult, checkoutResponse: jws };
    };
    const decrypts = vi.spyOn(kmsClient, 'send');
    for (const where of ['header', 'payload'] as const) {
      for (const claims of [{ exp: nowS - 3600 }, { nbf: nowS + 3600 }] as Record<string, number>[]) {
        const response = await pay(world, token, await resigned(where, claims));
        expect(response.status, `${where} ${JSON.stringify(claims)}`).toBe(422);
        expect(response.body.code).toBe('CHECKOUT_EXPIRED');
      }
    }
    expect(decrypts.mock.calls.filter(([command]) => command instanceof DecryptCommand)).toHaveLength(0);
    decrypts.mockRestore();
    // Within the network's window the same re-signing is accepted, and the refusals left the payment payable.
    const valid = await pay(world, token, await resigned('header', { exp: nowS + 600, nbf: nowS - 60 }));
    expect(valid.status, JSON.stringify(valid.body)).toBe(200);
    expect(valid.body.state).toBe('AUTHORISED');
  });

  it('a tampered JWS → 422 CHECKOUT_SIGNATURE_INVALID; a cancelled checkout → 422 CHECKOUT_PAYLOAD_INVALID', async () => {
    const world = await seedWorld();
    const sdkResult = await checkoutResponse();
    const [h, p, s] = String(sdkResult.checkoutResponse).split('.');
    const payload = JSON.parse(Buffer.from(p!, 'base64url').toString());
    payload.assuranceData.eci = '05';
    payload.maskedCard.panLastFour = '9999';
    const tampered = `${h}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${s}`;
    expect((await pay(world, token, { ...sdkResult, checkoutResponse: tampered })).body.code).toBe('CHECKOUT_SIGNATURE_INVALID');
    const cancelled = await pay(world, token, { actionCode: 'CANCEL' });
    expect(cancelled.status).toBe(422);
    expect(cancelled.body.code).toBe('CHECKOUT_PAYLOAD_INVALID');
  });

  it('another tenant cannot pay this order (404), nor can a token without CREATE_AUTHORIZATION (403)', async () => {
    const world = await seedWorld();
    const other = await pay(world, await tenantToken({ tenantRef: 'someone-else' }), await checkoutResponse());
    expect(other.status).toBe(404);
    const noPermission = await pay(world, await tenantToken({ tenantRef: world.tenantRef, permissions: ['VIEW_ORDER'] }), await checkoutResponse());
    expect(noPermission.status).toBe(403);
    expect(calls(world.paymentRef)).toBe(0);
  });
});
