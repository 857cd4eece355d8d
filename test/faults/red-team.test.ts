/**
 * Red team of the issue-7 change (deadlines, at most once to the acquirer, leases bound to a
 * credential). Each test states a promise of SPEC §2/§3/§6 and the scenario that breaks it.
 * Every defect found here was fixed; each test now guards its fix.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { proxiedStack } from '../support/fault-stack.js';
import { dynamoOperation, finalPaymentWrite, leaseWrite } from '../support/fault-proxy.js';
import { LEASE_RULE } from '../../lib/core/domain/lease-rule.js';

// Proxies in front of the engines before any client is built: lib/ is imported dynamically below.
const { dynamo } = await proxiedStack();
const { seedWorld } = await import('../support/seed.js');
const { platformToken } = await import('../support/tokens.js');
const { checkoutResponse } = await import('../support/checkout.js');
const { pay, payDirectly, completeThreeDs, answerChallenge, authorizerCalls, lookupCalls } = await import('../support/payments.js');
const { authorizer, paymentDeps, paymentRepository } = await import('../../lib/composition/payments.js');
const { SandboxAuthorizer } = await import('../../lib/adapters/sandbox/sandbox-authorizer.js');
const { documentClient } = await import('../../lib/composition/aws.js');
const { redact } = await import('../../lib/core/ports/logger.js');

let token: string;
beforeAll(async () => {
  token = await platformToken();
});

const realAuthorize = SandboxAuthorizer.prototype.authorize;
const acquirerRecord = (paymentRef: string) => authorizer.operation(paymentRef);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const sandboxAcquirerWrite = (r: { target: string; body: string }) => dynamoOperation('UpdateItem')(r) && r.body.includes('SANDBOX_ACQUIRER#');

/** The acquirer performs the authorization, then the connection breaks: we get no answer. */
function acquirerAnswersIntoTheVoid() {
  vi.spyOn(authorizer, 'authorize').mockImplementationOnce(async (request, signal) => {
    await realAuthorize.call(authorizer, request, signal);
    throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
  });
}

async function expirePendingThreeDs(orderRef: string, paymentRef: string) {
  await documentClient.send(
    new UpdateCommand({
      TableName: process.env.ORDERS_TABLE,
      Key: { pk: `ORDER#${orderRef}`, sk: `PAYMENT#${paymentRef}#3DS` },
      UpdateExpression: 'SET expiresAt = :past',
      ExpressionAttributeValues: { ':past': Math.floor(Date.now() / 1000) - 1 },
    }),
  );
}

describe('an authorization whose answer was lost (the lease is parked)', () => {
  it('R1: a retry with ANOTHER card records the acquirer outcome of the first card under the second card’s details', async () => {
    const world = await seedWorld();
    acquirerAnswersIntoTheVoid();
    const first = await pay(world, token, await checkoutResponse({ card: 'visa-classic' })); // token …3478
    expect(first.status).toBe(502);
    expect((await acquirerRecord(world.paymentRef))?.outcome).toMatchObject({ kind: 'approved' }); // card …3478 was charged

    const second = await pay(world, token, await checkoutResponse({ card: 'mastercard-world' })); // token …4792
    expect(authorizerCalls(world.paymentRef)).toBe(1); // held: the acquirer was asked, not called
    // Either refuse the other card (409) or record what the acquirer actually authorized.
    // Today: 200 AUTHORISED, brand MASTERCARD, tokenLastFour 4792, with the Visa card's approval.
    if (second.status === 200) {
      expect(second.body.paymentMethod).toMatchObject({ brand: 'VISA', tokenLastFour: '3478' });
    } else {
      expect(second.status).toBe(409);
    }
  });

  it('R2 (4.10): the 3DS data expiring after a lost answer turns an approved authorization into FAILED THREE_DS_EXPIRED', async () => {
    const world = await seedWorld();
    const awaiting = await pay(world, token, await checkoutResponse({ card: 'visa-3ds' }));
    expect(awaiting.body.state).toBe('AWAIT_3DS');
    const { cres } = await answerChallenge(awaiting.body.threeDs, '1234');
    acquirerAnswersIntoTheVoid();
    const first = await completeThreeDs(world, token, cres!);
    expect(first.status).toBe(502);
    expect((await acquirerRecord(world.paymentRef))?.outcome).toMatchObject({ kind: 'approved' });
    expect((await paymentRepository.get(world.orderRef, world.paymentRef))?.parkedUntil).toBeGreaterThan(Date.now());

    await expirePendingThreeDs(world.orderRef, world.paymentRef); // the shopper comes back after the hour
    const retry = await completeThreeDs(world, token, cres!);
    // The acquirer approved: the payment must say so (ask lookup before failing without authorization).
    expect(retry.body.state, JSON.stringify(retry.body)).toBe('AUTHORISED');
  });

  it('held: a retry with the same checkout response asks lookup and records the approval once', async () => {
    const world = await seedWorld();
    const sdkResult = await checkoutResponse();
    acquirerAnswersIntoTheVoid();
    expect((await pay(world, token, sdkResult)).status).toBe(502);
    const retry = await pay(world, token, sdkResult);
    expect(retry.body.state).toBe('AUTHORISED');
    expect(lookupCalls(world.paymentRef)).toBe(1);
    expect((await acquirerRecord(world.paymentRef))?.calls).toBe(1);
  });

  it('held (4.10): a 4.10 retry after a lost answer asks lookup and records the approval once', async () => {
    const world = await seedWorld();
    const awaiting = await pay(world, token, await checkoutResponse({ card: 'visa-3ds' }));
    const { cres } = await answerChallenge(awaiting.body.threeDs, '1234');
    acquirerAnswersIntoTheVoid();
    expect((await completeThreeDs(world, token, cres!)).status).toBe(502);
    const retry = await completeThreeDs(world, token, cres!);
    expect(retry.body.state, JSON.stringify(retry.body)).toBe('AUTHORISED');
    expect((await acquirerRecord(world.paymentRef))?.calls).toBe(1);
  });
});

describe('an authorizer timeout whose request reaches the acquirer late', () => {
  it('R3: while the first request may still land, lookup saying "never performed" does not send it again', async () => {
    const world = await seedWorld();
    const sdkResult = await checkoutResponse();
    paymentDeps.settings.authorizerTimeoutMs = 300;
    paymentDeps.settings.inFlightMs = 60_000; // the window is open for the whole test
    let land!: () => void;
    const onTheWire = new Promise<void>((resolve) => (land = resolve));
    let landed: Promise<unknown> = Promise.resolve();
    vi.spyOn(authorizer, 'authorize').mockImplementationOnce((request, signal) => {
      // The request is on the wire when we give up; the acquirer processes it later, when the test says.
      landed = onTheWire.then(() => realAuthorize.call(authorizer, request, AbortSignal.timeout(5_000)));
      return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));
    });
    const first = await pay(world, token, sdkResult);
    expect(first.status).toBe(502);
    paymentDeps.settings.authorizerTimeoutMs = 10_000;
    const early = await pay(world, token, sdkResult); // lookup: nothing yet, and the window is open
    expect(early.status).toBe(502);
    expect(Number(early.headers['Retry-After'])).toBeGreaterThanOrEqual(1);
    land();
    await landed;
    const retry = await pay(world, token, sdkResult);
    expect(retry.body.state).toBe('AUTHORISED');
    expect(authorizerCalls(world.paymentRef)).toBe(1);
    expect((await acquirerRecord(world.paymentRef))?.calls).toBe(1);
  });
});

describe('the final write lands but every answer is lost: 503, and the retry must return the real outcome (SPEC §6)', () => {
  it('held (4.3): the same checkout response returns the AUTHORISED payment', async () => {
    const world = await seedWorld();
    const sdkResult = await checkoutResponse();
    dynamo.drop(finalPaymentWrite, 'response', 1_000);
    const first = await pay(world, token, sdkResult);
    expect(first.status).toBe(503);
    expect(first.headers['Retry-After']).toBeDefined();
    dynamo.heal();
    const retry = await pay(world, token, sdkResult);
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect(retry.body.state).toBe('AUTHORISED');
  }, 40_000);

  it('R4 (4.4): the same Direct Wallet request gets 409 PAYMENT_STATE_CONFLICT instead of its AUTHORISED payment', async () => {
    const world = await seedWorld({}, { directWallet: true });
    const body = {
      token: { paymentToken: '4895370012003478', tokenExpirationMonth: '12', tokenExpirationYear: '2030' },
      dynamicData: [{ dynamicDataValue: 'AgAAAAAABk4DWZ4C28yUQAAAAAA=', dynamicDataType: 'CARD_APPLICATION_CRYPTOGRAM_LONG_FORM' }],
      eci: '05',
    };
    dynamo.drop(finalPaymentWrite, 'response', 1_000);
    const first = await payDirectly(world, token, body);
    expect(first.status, JSON.stringify(first.body)).toBe(503);
    dynamo.heal();
    expect((await paymentRepository.get(world.orderRef, world.paymentRef))?.state).toBe('AUTHORISED');
    const retry = await payDirectly(world, token, body);
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect(retry.body.state).toBe('AUTHORISED');
  }, 40_000);

  it('R4 (4.10): the same cres gets 409 instead of the AUTHORISED payment', async () => {
    const world = await seedWorld();
    const awaiting = await pay(world, token, await checkoutResponse({ card: 'visa-3ds' }));
    const { cres } = await answerChallenge(awaiting.body.threeDs, '1234');
    dynamo.drop(finalPaymentWrite, 'response', 1_000);
    const first = await completeThreeDs(world, token, cres!);
    expect(first.status, JSON.stringify(first.body)).toBe(503);
    dynamo.heal();
    expect((await paymentRepository.get(world.orderRef, world.paymentRef))?.state).toBe('AUTHORISED');
    const retry = await completeThreeDs(world, token, cres!);
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect(retry.body.state).toBe('AUTHORISED');
  }, 40_000);
});

describe('the lease write lands but its answer is lost', () => {
  it('R5: the SDK’s own retry must recognise our lease instead of answering 409 “being processed” for 30 s', async () => {
    const world = await seedWorld();
    dynamo.drop(leaseWrite, 'response', 1);
    const response = await pay(world, token, await checkoutResponse());
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.state).toBe('AUTHORISED');
    expect((await acquirerRecord(world.paymentRef))?.calls).toBe(1);
  });
});

describe('a lease holder that died with its credential', () => {
  it('R8: once its lease is abandoned and the acquirer never saw the payment, a new checkout response pays it', async () => {
    const world = await seedWorld();
    paymentDeps.settings.leaseMs = 200; // abandoned = expired, then one more lease period
    const payment = (await paymentRepository.get(world.orderRef, world.paymentRef))!;
    // A holder that took the lease for a checkout response nobody has any more (tab closed), then died.
    await paymentRepository.acquireLease(payment, {
      from: 'STARTED',
      requires: LEASE_RULE.fresh('STARTED'),
      leaseId: 'dead-holder',
      leaseUntil: Date.now() + 200,
      now: Date.now(),
      credential: 'checkout:lost',
    });
    await sleep(300);
    expect(await acquirerRecord(world.paymentRef)).toBeUndefined(); // lookup would say: never performed
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const response = await pay(world, token, await checkoutResponse());
      if (response.status === 200) return expect(response.body.state).toBe('AUTHORISED');
      expect(response.status).toBe(409); // "An earlier attempt with another payment credential holds this payment."
      await sleep(300);
    }
    expect.fail('the payment stays PROCESSING for ever: no attempt with another credential, and no sweeper, can end it');
  });
});

describe('a lease holder that died after the acquirer approved, and never came back', () => {
  it('R8b: the next attempt with another card records that approval (with the first card) and gets 409, never a second charge', async () => {
    const world = await seedWorld();
    paymentDeps.settings.leaseMs = 200;
    const payment = (await paymentRepository.get(world.orderRef, world.paymentRef))!;
    const masked = { type: 'CLICK_TO_PAY' as const, brand: 'VISA', tokenLastFour: '3478', expiry: '2029-12' };
    await paymentRepository.acquireLease(payment, {
      from: 'STARTED',
      requires: LEASE_RULE.fresh('STARTED'),
      leaseId: 'dead-holder',
      leaseUntil: Date.now() + 200,
      now: Date.now(),
      credential: 'checkout:lost',
      masked,
    });
    await realAuthorize.call(
      authorizer,
      {
        idempotencyKey: world.paymentRef,
        orderRef: world.orderRef,
        credential: { kind: 'token', number: '4895370012003478', expiryMonth: '12', expiryYear: '2029', cryptogram: 'x' },
        brand: 'VISA',
        eci: '05',
        amount: payment.amount,
        capture: false,
        payerIp: undefined,
      },
      AbortSignal.timeout(5_000),
    );
    await sleep(450);
    const other = await pay(world, token, await checkoutResponse({ card: 'mastercard-world' }));
    expect(other.status).toBe(409);
    const settled = await paymentRepository.get(world.orderRef, world.paymentRef);
    expect(settled).toMatchObject({ state: 'AUTHORISED', paymentMethod: masked });
    expect(authorizerCalls(world.paymentRef)).toBe(0);
    expect((await acquirerRecord(world.paymentRef))?.calls).toBe(1);
  });
});

describe('the sandbox acquirer counts what the service sent', () => {
  it('R6: a lost answer to the acquirer’s own write is retried by the SDK and counted as a second call', async () => {
    const world = await seedWorld();
    const sdkResult = await checkoutResponse();
    dynamo.drop(sandboxAcquirerWrite, 'response', 1);
    const first = await pay(world, token, sdkResult);
    expect(authorizerCalls(world.paymentRef)).toBe(1); // the service called authorize once
    expect([200, 502]).toContain(first.status);
    expect((await acquirerRecord(world.paymentRef))?.calls).toBe(1);
  });
});

describe('logs', () => {
  it('R7: redaction still cuts UUIDs whose tail is digits (issue 7 item 7), so paymentRefs vanish from logs', () => {
    const paymentRef = 'f0745073-fc9a-4bc1-2345-678901234567';
    expect(JSON.stringify(redact({ paymentRef }))).toContain(paymentRef);
  });

  it('R7b: a PAN written with dots passes redaction', () => {
    expect(String(redact('card 4111.1111.1111.1111'))).not.toContain('4111.1111.1111.1111');
  });
});
