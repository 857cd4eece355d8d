/**
 * A lease whose holder died (tab closed, process gone) does not hold the payment for ever
 * (SPEC §3, §6): once it is abandoned, the next attempt either pays the payment or records what
 * the acquirer already did, never charging twice.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SandboxAuthorizer } from '../../lib/adapters/sandbox/sandbox-authorizer.js';
import { paymentDeps, paymentRepository } from '../../lib/composition/payments.js';
import { authorizer } from '../support/sandbox-acquirer.js';
import { LEASE_RULE } from '../../lib/core/domain/lease-rule.js';
import { checkoutResponse } from '../support/checkout.js';
import { acquirerRecord } from '../support/lifecycle.js';
import { authorizerCalls, pay } from '../support/payments.js';
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
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a lease whose holder died with its credential is ended, never charged twice', () => {
  it('the acquirer never saw the payment: once the lease is abandoned, a new checkout response pays it', async () => {
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

  it('the acquirer approved before the holder died: the next attempt with another card records that approval (with the first card) and gets 409, never a second charge', async () => {
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
