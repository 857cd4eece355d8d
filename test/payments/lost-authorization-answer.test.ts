/**
 * At most once to the acquirer (SPEC §3, §6): an authorization whose answer was lost, or whose
 * request may still land, is asked about (the acquirer's lookup), never sent again; what the
 * acquirer did is what the payment records, with the card it was done with.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SandboxAuthorizer } from '../../lib/adapters/sandbox/sandbox-authorizer.js';
import { documentClient } from '../../lib/composition/aws.js';
import { paymentDeps, paymentRepository } from '../../lib/composition/payments.js';
import { authorizer } from '../support/sandbox-acquirer.js';
import { checkoutResponse } from '../support/checkout.js';
import { acquirerRecord } from '../support/lifecycle.js';
import { answerChallenge, authorizerCalls, completeThreeDs, lookupCalls, pay } from '../support/payments.js';
import { seedWorld } from '../support/seed.js';
import { platformToken } from '../support/tokens.js';

let token: string;
beforeAll(async () => {
  token = await platformToken();
});
const settings = { ...paymentDeps.settings };
afterEach(() => {
  Object.assign(paymentDeps.settings, settings);
});

const realAuthorize = SandboxAuthorizer.prototype.authorize;

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

describe('an authorization whose answer was lost is asked about (lookup), never sent again', () => {
  it('a retry with another card records the first card’s approval under the first card’s details, or is refused (409); the acquirer is asked, not called', async () => {
    const world = await seedWorld();
    acquirerAnswersIntoTheVoid();
    const first = await pay(world, token, await checkoutResponse({ card: 'visa-classic' })); // token …3478
    expect(first.status).toBe(502);
    expect((await acquirerRecord(world.paymentRef))?.outcome).toMatchObject({ kind: 'approved' }); // card …3478 was charged

    const second = await pay(world, token, await checkoutResponse({ card: 'mastercard-world' })); // token …4792
    expect(authorizerCalls(world.paymentRef)).toBe(1); // the acquirer was asked, not called
    // Either refuse the other card (409) or record what the acquirer actually authorized: the
    // Visa card's approval, never under the Mastercard's brand and last four.
    if (second.status === 200) {
      expect(second.body.paymentMethod).toMatchObject({ brand: 'VISA', tokenLastFour: '3478' });
    } else {
      expect(second.status).toBe(409);
    }
  });

  it('4.10: the 3DS data expiring after a lost answer never turns an approved authorization into FAILED THREE_DS_EXPIRED', async () => {
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

  it('a retry with the same checkout response asks lookup and records the approval once', async () => {
    const world = await seedWorld();
    const sdkResult = await checkoutResponse();
    acquirerAnswersIntoTheVoid();
    expect((await pay(world, token, sdkResult)).status).toBe(502);
    const retry = await pay(world, token, sdkResult);
    expect(retry.body.state).toBe('AUTHORISED');
    expect(lookupCalls(world.paymentRef)).toBe(1);
    expect((await acquirerRecord(world.paymentRef))?.calls).toBe(1);
  });

  it('4.10: a retry after a lost answer asks lookup and records the approval once', async () => {
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
  it('while the first request may still land, lookup saying "never performed" does not send it again; once it landed, the retry records it once', async () => {
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
