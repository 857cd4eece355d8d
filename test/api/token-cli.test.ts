import { describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { handler as getOrder } from '../../functions/get-order/handler.js';
import { handler as putPlatform } from '../../functions/put-platform-payment-methods/handler.js';
import { invoke } from '../support/invoke.js';
import { run } from '../support/local-service.js';
import { seedWorld } from '../support/seed.js';

/** SPEC §7: `npm run -s token -- …` prints one access token, nothing else, that the service accepts. */
const token = async (...args: string[]) => {
  const result = await run('npm', ['run', '-s', 'token', '--', ...args, '--data-dir', process.env.TEST_DATA_DIR!]);
  return result;
};

describe('npm run token', () => {
  it('prints exactly one platform JWT on stdout that a platform endpoint accepts', async () => {
    const { code, stdout } = await token('--realm', 'platform');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+\n$/);
    const response = await invoke(putPlatform, {
      method: 'PUT',
      path: '/config/platform/configs/payment-methods',
      token: stdout.trim(),
      body: { paymentMethods: { CLICK_TO_PAY: { enabled: true } } },
    });
    expect(response.status).toBe(200);
    // The default platform token carries every permission, the lifecycle and webhook ones included.
    expect(decodeJwt(stdout.trim()).permissions).toEqual(
      expect.arrayContaining(['CREATE_ORDER', 'CREATE_AUTHORIZATION', 'CREATE_CAPTURE', 'CREATE_REVERSAL', 'CREATE_REFUND', 'MANAGE_WEBHOOKS']),
    );
  }, 30_000);

  it('prints a narrowed tenant token with the asked permissions and ttl', async () => {
    const world = await seedWorld();
    const { stdout } = await token(
      '--realm',
      'tenant',
      '--tenant',
      world.tenantRef,
      '--merchant',
      world.merchantRef,
      '--outlets',
      `${world.outletId},other`,
      '--permissions',
      'VIEW_ORDER',
      '--ttl',
      '120',
    );
    const claims = decodeJwt(stdout.trim());
    expect(claims).toMatchObject({
      realm: 'tenant',
      tenantRef: world.tenantRef,
      merchantRef: world.merchantRef,
      outletIds: [world.outletId, 'other'],
      permissions: ['VIEW_ORDER'],
    });
    expect(claims.exp! - claims.iat!).toBe(120);
    const response = await invoke(getOrder, {
      path: `/transactions/outlets/${world.outletId}/orders/${world.orderRef}`,
      pathParameters: { outletId: world.outletId, orderRef: world.orderRef },
      token: stdout.trim(),
    });
    expect(response.status).toBe(200);
  }, 30_000);

  it('fails with a message on stderr and no token on stdout for bad arguments', async () => {
    const result = await token('--realm', 'tenant');
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('token: --tenant is required for a tenant token (see --help)');
  }, 30_000);

  it('captured without -s, where npm puts its banner on stdout, it refuses with one line instead of printing a token after the banner', async () => {
    const result = await run('npm', ['run', 'token', '--', '--realm', 'platform', '--data-dir', process.env.TEST_DATA_DIR!]);
    expect(result.code).not.toBe(0);
    expect(result.stdout).toContain('> click-to-pay-service@0.1.0 token');
    expect(result.stdout).not.toMatch(/[\w-]{10,}\.[\w-]{10,}\.[\w-]{10,}/);
    expect(result.stderr).toContain(
      'token: npm printed its "> token" banner on stdout ahead of the output; run `npm run -s token -- …` to capture or redirect it\n',
    );
  }, 30_000);

  it('with --json, where npm keeps its banner off stdout, it prints the token alone', async () => {
    const result = await run('npm', ['run', '--json', 'token', '--', '--realm', 'platform', '--data-dir', process.env.TEST_DATA_DIR!]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+\n$/);
  }, 30_000);
});
