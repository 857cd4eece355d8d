import { DecryptCommand } from '@aws-sdk/client-kms';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { kmsClient } from '../../lib/composition/aws.js';
import { paymentRepository } from '../../lib/composition/payments.js';
import { checkoutResponse } from '../support/checkout.js';
import { answerChallenge, authorizerCalls, completeThreeDs, pay } from '../support/payments.js';
import { seedWorld } from '../support/seed.js';
import { platformToken } from '../support/tokens.js';

/** 4.10 decrypts the kept JWE again: a KMS throttle there is 503, and the payment can still finish. */
let token: string;
beforeAll(async () => {
  token = await platformToken();
});

describe('4.10 with KMS throttled', () => {
  it('503 DEPENDENCY_UNAVAILABLE, the payment stays AWAIT_3DS with its JWE, and the retry is authorised once', async () => {
    const world = await seedWorld();
    const awaiting = await pay(world, token, await checkoutResponse({ card: 'visa-3ds' }));
    expect(awaiting.body.state).toBe('AWAIT_3DS');
    const { cres } = await answerChallenge(awaiting.body.threeDs, '1234');
    const original = kmsClient.send.bind(kmsClient);
    const throttle = vi.spyOn(kmsClient, 'send').mockImplementation((async (command: unknown) => {
      if (command instanceof DecryptCommand) throw Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException', $fault: 'client' });
      return original(command as never);
    }) as never);
    const throttled = await completeThreeDs(world, token, cres!);
    expect(throttled.status).toBe(503);
    expect(throttled.body.code).toBe('DEPENDENCY_UNAVAILABLE');
    expect(throttled.headers['Retry-After']).toBeDefined();
    expect((await paymentRepository.get(world.orderRef, world.paymentRef))?.state).toBe('AWAIT_3DS');
    expect(await paymentRepository.getPendingThreeDs(world.orderRef, world.paymentRef, Date.now())).toBeDefined();
    throttle.mockRestore();
    const retried = await completeThreeDs(world, token, cres!);
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(retried.body).toMatchObject({ state: 'AUTHORISED', eci: '05' });
    expect(authorizerCalls(world.paymentRef)).toBe(1);
  });
});
