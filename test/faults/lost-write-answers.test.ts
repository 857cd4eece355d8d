/**
 * A DynamoDB write that lands but whose answer is lost (the fault proxy drops the response)
 * changes nothing for the client (SPEC §2, §6): a 503 at worst, and the retry, or the SDK's
 * own, meets its own write and gets the real outcome; the acquirer is called once.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { proxiedStack } from '../support/fault-stack.js';
import { dynamoOperation, finalPaymentWrite, leaseWrite } from '../support/fault-proxy.js';

// Proxies in front of the engines before any client is built: lib/ is imported dynamically below.
const { dynamo } = await proxiedStack();
const { seedWorld } = await import('../support/seed.js');
const { platformToken } = await import('../support/tokens.js');
const { checkoutResponse } = await import('../support/checkout.js');
const { pay, payDirectly, completeThreeDs, answerChallenge, authorizerCalls } = await import('../support/payments.js');
const { acquirerRecord } = await import('../support/lifecycle.js');
const { paymentRepository } = await import('../../lib/composition/payments.js');

let token: string;
beforeAll(async () => {
  token = await platformToken();
});

const sandboxAcquirerWrite = (r: { target: string; body: string }) => dynamoOperation('UpdateItem')(r) && r.body.includes('SANDBOX_ACQUIRER#');

describe('the final write lands but every answer is lost: 503, then the retry returns the real outcome (SPEC §6)', () => {
  it('4.3: the same checkout response returns the AUTHORISED payment', async () => {
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

  it('4.4: the same Direct Wallet request returns its AUTHORISED payment, not 409 PAYMENT_STATE_CONFLICT', async () => {
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

  it('4.10: the same cres returns the AUTHORISED payment, not 409', async () => {
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
  it('the SDK’s own retry recognises our lease: authorised once, not 409 “being processed” for 30 s', async () => {
    const world = await seedWorld();
    dynamo.drop(leaseWrite, 'response', 1);
    const response = await pay(world, token, await checkoutResponse());
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.state).toBe('AUTHORISED');
    expect((await acquirerRecord(world.paymentRef))?.calls).toBe(1);
  });
});

describe('the sandbox acquirer counts what the service sent', () => {
  it('a lost answer to its own write, retried by the SDK, still counts as one call', async () => {
    const world = await seedWorld();
    const sdkResult = await checkoutResponse();
    dynamo.drop(sandboxAcquirerWrite, 'response', 1);
    const first = await pay(world, token, sdkResult);
    expect(authorizerCalls(world.paymentRef)).toBe(1); // the service called authorize once
    expect([200, 502]).toContain(first.status);
    expect((await acquirerRecord(world.paymentRef))?.calls).toBe(1);
  });
});
