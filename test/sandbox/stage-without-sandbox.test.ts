/**
 * A stage that serves no sandbox (no `sandbox=true`: no sandbox table, no SANDBOX_TABLE): the
 * payment functions have no sandbox acquirer and no sandbox ACS, so a sandbox merchant's payment
 * is answered 502 AUTHORIZATION_UNAVAILABLE, retryable, and nothing is written for the sandbox;
 * the sandbox's own functions refuse to start. (Where the sandbox is served: every other test.)
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { documentClient } from '../../lib/composition/aws.js';
import { paymentRepository } from '../../lib/composition/payments.js';
import { tokenData } from '../support/direct-wallet.js';
import { invoke } from '../support/invoke.js';
import { seedWorld } from '../support/seed.js';
import { platformToken } from '../support/tokens.js';

const sandboxTable = process.env.SANDBOX_TABLE!;

/** The module graph afresh, as a cold start on that stage: SANDBOX_TABLE unset. */
async function withoutSandbox<T>(path: string): Promise<T> {
  vi.resetModules();
  vi.stubEnv('SANDBOX_TABLE', '');
  return (await import(path)) as T;
}

let token: string;
beforeAll(async () => {
  token = await platformToken();
});
afterAll(() => vi.unstubAllEnvs());

describe('a stage without the sandbox', () => {
  it('answers a sandbox merchant’s payment 502 AUTHORIZATION_UNAVAILABLE, retryable, and writes no sandbox item', async () => {
    const world = await seedWorld({ environment: 'sandbox' }, { directWallet: true });
    const { handler } = await withoutSandbox<{ handler: Parameters<typeof invoke>[0] }>('../../functions/pay-direct/handler.js');
    const response = await invoke(handler, {
      method: 'POST',
      path: `/transactions/outlets/${world.outletId}/orders/${world.orderRef}/payments/${world.paymentRef}/click-to-pay/direct`,
      pathParameters: { outletId: world.outletId, orderRef: world.orderRef, paymentRef: world.paymentRef },
      token,
      body: tokenData(),
    });
    expect(response.status, JSON.stringify(response.body)).toBe(502);
    expect(response.body.code).toBe('AUTHORIZATION_UNAVAILABLE');
    expect(response.body.detail).toMatch(/can be retried/);
    expect((await paymentRepository.get(world.orderRef, world.paymentRef))?.state, 'the payment may be tried again').toBe('STARTED');
    expect(response.raw).not.toMatch(/SANDBOX_TABLE|serves no sandbox/); // the reason stays in the logs
    const { Item } = await documentClient.send(
      new GetCommand({ TableName: sandboxTable, Key: { pk: `SANDBOX_ACQUIRER#${world.paymentRef}` }, ConsistentRead: true }),
    );
    expect(Item).toBeUndefined();
  });

  it('has no sandbox acquirer nor sandbox ACS in the payment functions’ wiring', async () => {
    const { sandboxAuthorizer, paymentDeps } = await withoutSandbox<typeof import('../../lib/composition/payments.js')>('../../lib/composition/payments.js');
    expect(sandboxAuthorizer).toBeUndefined();
    const sandbox = await paymentDeps.authorizers.for({ environment: 'sandbox' } as Parameters<typeof paymentDeps.authorizers.for>[0]);
    await expect(sandbox.recover({ operation: 'AUTHORIZE', reference: 'any' }, new AbortController().signal)).rejects.toThrow(/serves no sandbox/);
    await expect(
      paymentDeps.threeDsServers.sandbox.prepare(
        {
          brand: 'VISA',
          account: { number: '4895370012003478', expiryMonth: '12', expiryYear: '2029' },
          methodNotificationUrl: 'https://pay.test.example/checkout/3ds-method-notification',
        },
        new AbortController().signal,
      ),
    ).rejects.toMatchObject({ kind: 'not-sent', message: expect.stringMatching(/serves no sandbox/) });
  });

  it('refuses to start the sandbox’s own functions, naming SANDBOX_TABLE', async () => {
    await expect(withoutSandbox('../../functions/sandbox-acs/handler.js')).rejects.toThrow(/SANDBOX_TABLE/);
    await expect(withoutSandbox('../../functions/sandbox-src/handler.js')).rejects.toThrow(/SANDBOX_TABLE/);
  });

  it('refuses PRODUCTION_ACQUIRER=sandbox, naming both variables', async () => {
    vi.stubEnv('PRODUCTION_ACQUIRER', 'sandbox');
    await expect(withoutSandbox('../../lib/composition/acquirers.js')).rejects.toThrow(/PRODUCTION_ACQUIRER, SANDBOX_TABLE/);
  });
});
