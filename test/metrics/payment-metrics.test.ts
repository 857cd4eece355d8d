import { DecryptCommand } from '@aws-sdk/client-kms';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { documentClient, kmsClient } from '../../lib/composition/aws.js';
import { metrics } from '../../lib/core/ports/metrics.js';
import { checkoutResponse, currentRecipientKey } from '../support/checkout.js';
import { answerChallenge, completeThreeDs, pay } from '../support/payments.js';
import { seedWorld } from '../support/seed.js';
import { platformToken } from '../support/tokens.js';

/**
 * Issue 11 item 3: what a request records, through the real handlers, with a spy on the
 * metrics port. Each case also checks the dimensions stay in their closed sets.
 */
let token: string;
beforeAll(async () => {
  token = await platformToken();
  await currentRecipientKey(); // the payload keys are loaded before any KMS fault is injected
});
afterEach(() => vi.restoreAllMocks());

function recording() {
  const count = vi.spyOn(metrics, 'count');
  const timing = vi.spyOn(metrics, 'timing');
  const counted = (name: string) => count.mock.calls.filter(([n]) => n === name).map(([, dims, value]) => ({ ...dims, value: value ?? 1 }));
  return { count, timing, counted };
}

const PAY_ROUTE = 'POST /transactions/outlets/{outletId}/orders/{orderRef}/payments/{paymentRef}/click-to-pay';

describe('payment metrics', () => {
  it('an approval: Authorizations approved by brand and environment, and the route latency', async () => {
    const world = await seedWorld();
    const { counted, timing } = recording();
    const response = await pay(world, token, await checkoutResponse());
    expect(response.body.state).toBe('AUTHORISED');
    expect(counted('Authorizations')).toEqual([{ environment: 'sandbox', brand: 'VISA', outcome: 'approved', value: 1 }]);
    expect(counted('Declines')).toEqual([]);
    expect(counted('ServerErrors')).toEqual([]);
    expect(timing).toHaveBeenCalledWith('Latency', expect.any(Number), { route: PAY_ROUTE });
  });

  it('a decline: Authorizations declined and Declines by code', async () => {
    const world = await seedWorld({}, { amount: 1051 });
    const { counted } = recording();
    const response = await pay(world, token, await checkoutResponse({ card: 'mastercard-world' }));
    expect(response.body).toMatchObject({ state: 'FAILED', failure: { code: 'INSUFFICIENT_FUNDS' } });
    expect(counted('Authorizations')).toEqual([{ environment: 'sandbox', brand: 'MASTERCARD', outcome: 'declined', value: 1 }]);
    expect(counted('Declines')).toEqual([{ environment: 'sandbox', declineCode: 'INSUFFICIENT_FUNDS', value: 1 }]);
  });

  it('a 3DS step-up, then its authenticated result and the approval', async () => {
    const world = await seedWorld();
    const { counted, count } = recording();
    const awaiting = await pay(world, token, await checkoutResponse({ card: 'visa-3ds' }));
    expect(awaiting.body.state).toBe('AWAIT_3DS');
    expect(counted('ThreeDsStepUps')).toEqual([{ environment: 'sandbox', value: 1 }]);
    expect(counted('Authorizations')).toEqual([]); // nothing went to the acquirer yet

    const { cres } = await answerChallenge(awaiting.body.threeDs, '1234');
    count.mockClear();
    const done = await completeThreeDs(world, token, cres!);
    expect(done.body.state).toBe('AUTHORISED');
    expect(counted('ThreeDsResults')).toEqual([{ environment: 'sandbox', result: 'authenticated', value: 1 }]);
    expect(counted('Authorizations')).toEqual([{ environment: 'sandbox', brand: 'VISA', outcome: 'approved', value: 1 }]);
  });

  it('a failed 3DS challenge: ThreeDsResults failed, no authorization', async () => {
    const world = await seedWorld();
    const awaiting = await pay(world, token, await checkoutResponse({ card: 'visa-3ds' }));
    const { cres } = await answerChallenge(awaiting.body.threeDs, '0000');
    const { counted } = recording();
    const done = await completeThreeDs(world, token, cres!);
    expect(done.body.failure.code).toBe('THREE_DS_FAILED');
    expect(counted('ThreeDsResults')).toEqual([{ environment: 'sandbox', result: 'failed', value: 1 }]);
    expect(counted('Authorizations')).toEqual([]);
  });

  it('a checkout response presented for a second payment: ReplaysRefused', async () => {
    const first = await seedWorld();
    const second = await seedWorld();
    const sdkResult = await checkoutResponse();
    expect((await pay(first, token, sdkResult)).status).toBe(200);
    const { counted } = recording();
    const replayed = await pay(second, token, sdkResult);
    expect(replayed.body.code).toBe('CHECKOUT_RESPONSE_REPLAYED');
    expect(counted('ReplaysRefused')).toEqual([{ value: 1 }]);
    expect(counted('Authorizations')).toEqual([]);
  });

  it('a DynamoDB throttle: 503 with Retry-After, DependencyErrors dynamodb/throttled and ServerErrors', async () => {
    const world = await seedWorld();
    const sdkResult = await checkoutResponse();
    const { counted } = recording();
    const throttled = Object.assign(new Error('Rate of requests exceeds the allowed throughput.'), { name: 'ProvisionedThroughputExceededException' });
    vi.spyOn(documentClient, 'send').mockRejectedValueOnce(throttled);
    const response = await pay(world, token, sdkResult);
    expect(response.status).toBe(503);
    expect(response.headers['Retry-After']).toBe('1');
    expect(counted('DependencyErrors')).toEqual([{ dependency: 'dynamodb', reason: 'throttled', value: 1 }]);
    expect(counted('ServerErrors')).toEqual([{ code: 'DEPENDENCY_UNAVAILABLE', value: 1 }]);
  });

  it('a throttled KMS Decrypt: 503 with Retry-After (the scale limit), DependencyErrors kms/throttled', async () => {
    const world = await seedWorld();
    const sdkResult = await checkoutResponse();
    const { counted } = recording();
    const send = kmsClient.send.bind(kmsClient);
    vi.spyOn(kmsClient, 'send').mockImplementation(((command: unknown, options?: unknown) => {
      if (command instanceof DecryptCommand) {
        return Promise.reject(Object.assign(new Error('You have exceeded the rate at which you may call KMS.'), { name: 'ThrottlingException' }));
      }
      return send(command as never, options as never);
    }) as typeof kmsClient.send);
    const response = await pay(world, token, sdkResult);
    expect(response.status).toBe(503);
    expect(response.body.code).toBe('DEPENDENCY_UNAVAILABLE');
    expect(Number(response.headers['Retry-After'])).toBeGreaterThanOrEqual(1);
    expect(counted('DependencyErrors')).toEqual([{ dependency: 'kms', reason: 'throttled', value: 1 }]);
    expect(counted('ServerErrors')).toEqual([{ code: 'DEPENDENCY_UNAVAILABLE', value: 1 }]);
    expect(counted('Authorizations')).toEqual([]);
  });
});
