/**
 * Fault injection (issue 7): a fault proxy sits between the service's DynamoDB and KMS
 * clients and the local engines, and freezes, drops or resets what passes. Each case checks
 * the SPEC §2/§3/§6 promise: a clear status within the deadline (503 with Retry-After,
 * never a 500, never after the function's deadline), nothing lost, nothing done twice.
 * The bounds asserted on elapsed time are the SPEC's limits, not performance measurements.
 */
import { spawn } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { proxiedStack } from '../support/fault-stack.js';
import { dynamoOperation, finalPaymentWrite, kmsOperation, leaseWrite } from '../support/fault-proxy.js';

// Proxies in front of the engines before any client is built: lib/ is imported dynamically below.
const { dynamo, kms } = await proxiedStack();
const { seedWorld } = await import('../support/seed.js');
const { platformToken } = await import('../support/tokens.js');
const { checkoutResponse } = await import('../support/checkout.js');
const { pay, lookupCalls, authorizerCalls } = await import('../support/payments.js');
const { invoke } = await import('../support/invoke.js');
const { handler: getMerchantConfig } = await import('../../functions/get-merchant-config/handler.js');
const { paymentDeps, paymentRepository } = await import('../../lib/composition/payments.js');
const { authorizer } = await import('../support/sandbox-acquirer.js');

let token: string;
beforeAll(async () => {
  token = await platformToken();
});

const PAYMENT_DEADLINE_MS = 10_000; // SPEC §6 / issue 7: payments answer within 10 s
const CONFIG_DEADLINE_MS = 5_000; // config endpoints within 5 s

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = Date.now();
  const result = await work();
  return { result, ms: Date.now() - started };
}

function expectUnavailable(response: { status: number; headers: Record<string, string>; body: any }) {
  expect(response.status, JSON.stringify(response.body)).toBe(503);
  expect(response.body.code).toBe('DEPENDENCY_UNAVAILABLE');
  expect(Number(response.headers['Retry-After'])).toBeGreaterThanOrEqual(1);
}

const acquirerCalls = async (paymentRef: string) => (await authorizer.operation(paymentRef))?.calls ?? 0;

describe('a frozen dependency answers 503 within the deadline, then the retry completes exactly once', () => {
  it('DynamoDB frozen for the whole of a 4.3 call', async () => {
    const world = await seedWorld();
    const sdkResult = await checkoutResponse();
    dynamo.freeze();
    const { result, ms } = await timed(() => pay(world, token, sdkResult));
    expectUnavailable(result);
    expect(ms).toBeLessThan(PAYMENT_DEADLINE_MS);
    dynamo.thaw(); // what the frozen engine had received is processed now, as after SIGCONT
    const retry = await pay(world, token, sdkResult);
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect(retry.body.state).toBe('AUTHORISED');
    expect(await acquirerCalls(world.paymentRef)).toBe(1);
  });

  it('DynamoDB freezing at the lease write: the late write lands after the 503, and the retry still authorizes once', async () => {
    const world = await seedWorld();
    const sdkResult = await checkoutResponse();
    paymentDeps.settings.leaseMs = 1_500;
    dynamo.freeze(leaseWrite);
    const { result, ms } = await timed(() => pay(world, token, sdkResult));
    expectUnavailable(result);
    expect(ms).toBeLessThan(PAYMENT_DEADLINE_MS);
    dynamo.thaw();
    await until(async () => (await paymentRepository.get(world.orderRef, world.paymentRef))?.state === 'PROCESSING');
    const early = await pay(world, token, sdkResult); // the abandoned attempt's lease is live
    expect([200, 409]).toContain(early.status);
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    const retry = await pay(world, token, sdkResult);
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect(retry.body.state).toBe('AUTHORISED');
    expect(await acquirerCalls(world.paymentRef)).toBe(1);
  });

  it('KMS frozen during a 4.3 call', async () => {
    const world = await seedWorld();
    const sdkResult = await checkoutResponse();
    await pay({ ...world, paymentRef: 'warm-up' }, token, sdkResult); // public keys cached: the freeze hits Decrypt
    kms.freeze();
    const { result, ms } = await timed(() => pay(world, token, sdkResult));
    expectUnavailable(result);
    expect(ms).toBeLessThan(PAYMENT_DEADLINE_MS);
    expect(kms.count(kmsOperation('Decrypt'))).toBeGreaterThanOrEqual(1);
    kms.thaw();
    const retry = await pay(world, token, sdkResult);
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect(await acquirerCalls(world.paymentRef)).toBe(1);
  });

  it('DynamoDB frozen during a config read (4.1): 503 within 5 s, then 200', async () => {
    const world = await seedWorld();
    const read = () =>
      invoke(getMerchantConfig, {
        path: `/config/merchants/${world.merchantRef}/configs/vctp`,
        pathParameters: { merchantRef: world.merchantRef },
        token,
        timeoutMs: 6_000, // the config functions' Lambda timeout
      });
    dynamo.freeze();
    const { result, ms } = await timed(read);
    expectUnavailable(result);
    expect(ms).toBeLessThan(CONFIG_DEADLINE_MS);
    dynamo.thaw();
    expect((await read()).status).toBe(200);
  });

  it('a reset connection mid-payment is retried by the client and changes nothing', async () => {
    const world = await seedWorld();
    dynamo.drop(dynamoOperation('Query'), 'request', 1);
    const response = await pay(world, token, await checkoutResponse());
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(await acquirerCalls(world.paymentRef)).toBe(1);
  });
});

describe('a lost final write never makes the acquirer see the payment twice', () => {
  it('the write lands but its answer is lost: the retry recognises its own write', async () => {
    const world = await seedWorld();
    dynamo.drop(finalPaymentWrite, 'response', 1);
    const response = await pay(world, token, await checkoutResponse());
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.state).toBe('AUTHORISED');
    expect(await acquirerCalls(world.paymentRef)).toBe(1);
  });

  it('the write never lands while the function lives: 503, then after the lease the acquirer is asked, not called', async () => {
    const world = await seedWorld();
    const sdkResult = await checkoutResponse();
    paymentDeps.settings.leaseMs = 1_000;
    dynamo.drop(finalPaymentWrite, 'request', 1_000);
    const { result, ms } = await timed(() => pay(world, token, sdkResult));
    expectUnavailable(result);
    expect(ms).toBeLessThan(PAYMENT_DEADLINE_MS + 5_000); // the final write is retried within the deadline
    expect(await acquirerCalls(world.paymentRef)).toBe(1); // the acquirer approved
    expect((await paymentRepository.get(world.orderRef, world.paymentRef))?.state).toBe('PROCESSING');
    dynamo.heal();
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const retry = await pay(world, token, sdkResult);
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect(retry.body.state).toBe('AUTHORISED');
    expect(lookupCalls(world.paymentRef)).toBe(1);
    expect(authorizerCalls(world.paymentRef)).toBe(1);
    expect(await acquirerCalls(world.paymentRef)).toBe(1);
  });
});

describe('the lease-holding process is killed', () => {
  it('after the lease, another credential gets 409 and the same one records the acquirer outcome', async () => {
    const world = await seedWorld();
    const sdkResult = await checkoutResponse();
    const holder = spawn(process.execPath, ['--import', 'tsx', 'test/faults/lease-holder.ts'], {
      env: { ...process.env, PAYMENT_LEASE_SECONDS: '6', AUTHORIZER_TIMEOUT_MS: '1000', LEASE_HOLDER_INPUT: JSON.stringify({ world, token, sdkResult }) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    holder.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    holder.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await until(
      () => Promise.resolve(output.includes('ACQUIRER_ANSWERED')),
      60_000,
      () => output,
    );
    holder.kill('SIGKILL');
    expect(await acquirerCalls(world.paymentRef)).toBe(1);

    const held = await pay(world, token, sdkResult);
    expect(held.status).toBe(409);
    const stored = await paymentRepository.get(world.orderRef, world.paymentRef);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, (stored?.leaseUntil ?? 0) - Date.now() + 200)));

    const other = await pay(world, token, await checkoutResponse());
    expect(other.status).toBe(409);
    expect(other.body.detail).toMatch(/another payment credential/);

    const recovered = await pay(world, token, sdkResult);
    expect(recovered.status, JSON.stringify(recovered.body)).toBe(200);
    expect(recovered.body.state).toBe('AUTHORISED');
    expect(authorizerCalls(world.paymentRef)).toBe(0); // this process never authorized: it asked
    expect(lookupCalls(world.paymentRef)).toBe(1);
    expect(await acquirerCalls(world.paymentRef)).toBe(1);
  }, 90_000);
});

async function until(check: () => Promise<boolean>, timeoutMs = 10_000, describe: () => string = () => ''): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms ${describe()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
