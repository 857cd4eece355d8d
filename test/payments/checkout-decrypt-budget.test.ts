import { DecryptCommand } from '@aws-sdk/client-kms';
import { exportJWK, generateKeyPair } from 'jose';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { kmsClient } from '../../lib/composition/aws.js';
import { checkoutResponse } from '../support/checkout.js';
import { pay } from '../support/payments.js';
import { seedWorld } from '../support/seed.js';
import { platformToken } from '../support/tokens.js';

/**
 * KMS's RSA Decrypt quota is shared by the account: one network-signed checkout response must
 * not buy anyone an unbounded number of Decrypts (docs/operating/keys.md). A JWE whose kid names
 * no key costs one Decrypt per configured key (the trial); once that answer is known (422, or
 * 409 for a settled payment), the same checkout response for the same payment never reaches KMS
 * again. A throttle (503) is not an answer, so its retry does.
 */
let token: string;
beforeAll(async () => {
  token = await platformToken();
});
afterEach(() => vi.restoreAllMocks());

const decrypts = () => {
  const spy = vi.spyOn(kmsClient, 'send');
  return () => spy.mock.calls.filter(([command]) => command instanceof DecryptCommand).length;
};

describe('one checkout response is not spent on KMS over and over', () => {
  it('the same undecryptable checkout response again for the same payment is 422 without another Decrypt', async () => {
    const world = await seedWorld();
    const { publicKey } = await generateKeyPair('RSA-OAEP-256', { extractable: true, modulusLength: 2048 });
    const foreign = { ...(await exportJWK(publicKey)), kid: 'not-a-key-of-ours' };
    const sdkResult = await checkoutResponse({ recipientKey: foreign });
    const count = decrypts();
    const first = await pay(world, token, sdkResult);
    expect(first.status).toBe(422);
    expect(first.body.code).toBe('CHECKOUT_DECRYPTION_FAILED');
    const afterFirst = count();
    expect(afterFirst).toBeGreaterThanOrEqual(1); // the trial: one per configured key
    for (let i = 0; i < 5; i += 1) {
      const again = await pay(world, token, sdkResult);
      expect(again.status).toBe(422);
      expect(again.body.code).toBe('CHECKOUT_DECRYPTION_FAILED');
    }
    expect(count()).toBe(afterFirst);
  });

  it('a KMS throttle is not remembered: the retry reaches KMS, and the payment is authorised', async () => {
    const world = await seedWorld();
    const sdkResult = await checkoutResponse();
    const original = kmsClient.send.bind(kmsClient);
    const spy = vi.spyOn(kmsClient, 'send').mockImplementationOnce((async (command: unknown) => {
      if (command instanceof DecryptCommand) throw Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException', $fault: 'client' });
      return original(command as never);
    }) as never);
    const throttled = await pay(world, token, sdkResult);
    expect(throttled.status).toBe(503);
    expect(throttled.body.code).toBe('DEPENDENCY_UNAVAILABLE');
    spy.mockRestore();
    const retried = await pay(world, token, sdkResult);
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(retried.body.state).toBe('AUTHORISED');
  });

  it('another checkout response for a payment that is already settled: its repeats are 409 without another Decrypt', async () => {
    const world = await seedWorld();
    expect((await pay(world, token, await checkoutResponse())).body.state).toBe('AUTHORISED');
    const other = await checkoutResponse();
    const count = decrypts();
    const first = await pay(world, token, other);
    expect(first.status).toBe(409);
    expect(first.body.code).toBe('PAYMENT_STATE_CONFLICT');
    const afterFirst = count();
    for (let i = 0; i < 5; i += 1) expect((await pay(world, token, other)).body.code).toBe('PAYMENT_STATE_CONFLICT');
    expect(count()).toBe(afterFirst);
  });
});
