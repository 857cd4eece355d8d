import { afterEach, describe, expect, it, vi } from 'vitest';
import { handler as putHandler } from '../../functions/put-webhook-config/handler.js';
import { invoke } from '../support/invoke.js';
import { seedMerchant } from '../support/seed.js';
import { platformToken } from '../support/tokens.js';

/**
 * A sandbox merchant may register http://127.0.0.1… (SPEC 4.15), but a deployed worker must not
 * deliver there: in Lambda, loopback is the function's own sandbox. Only the local stack says
 * WEBHOOK_LOOPBACK_DELIVERY=allowed.
 */
async function endpointWith(setting: string | undefined) {
  const merchant = await seedMerchant({ environment: 'sandbox' });
  const put = await invoke(putHandler, {
    method: 'PUT',
    path: `/config/merchants/${merchant.merchantRef}/configs/webhooks`,
    pathParameters: { merchantRef: merchant.merchantRef },
    token: await platformToken(),
    body: { url: 'http://127.0.0.1:9001/2018-06-01/runtime/init/error' },
  });
  expect(put.status, put.raw).toBe(200);
  vi.resetModules();
  if (setting === undefined) vi.stubEnv('WEBHOOK_LOOPBACK_DELIVERY', undefined as unknown as string);
  else vi.stubEnv('WEBHOOK_LOOPBACK_DELIVERY', setting);
  const { webhookEndpoints } = await import('../../lib/composition/webhook-delivery.js');
  return webhookEndpoints.endpointFor(merchant.merchantRef, Date.now());
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('loopback delivery for sandbox merchants', () => {
  it('is refused by default (a deployed worker), with the URL and secrets still known', async () => {
    const endpoint = await endpointWith(undefined);
    expect(endpoint).toMatchObject({ url: 'http://127.0.0.1:9001/2018-06-01/runtime/init/error', allowLoopback: false });
    expect(endpoint!.secrets).toHaveLength(1);
  });

  it('is allowed where the local stack says so', async () => {
    expect(await endpointWith('allowed')).toMatchObject({ allowLoopback: true });
  });

  it('refuses a misspelt setting at cold start', async () => {
    await expect(endpointWith('yes')).rejects.toThrow(/WEBHOOK_LOOPBACK_DELIVERY/);
  });
});
