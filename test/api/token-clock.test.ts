import { describe, expect, it } from 'vitest';
import { handler as getKeys } from '../../functions/get-encryption-keys/handler.js';
import { signDevToken } from '../../infra/local/dev-identity.js';
import { invoke } from '../support/invoke.js';
import { ALL_PERMISSIONS, identity } from '../support/tokens.js';

/** SPEC §1: `exp` required, 30 s clock tolerance. */
const call = async (ttlSeconds: number) =>
  invoke(getKeys, {
    path: '/config/configs/vctp/encryption-keys',
    token: await signDevToken(identity, { realm: 'platform', permissions: ALL_PERMISSIONS }, ttlSeconds),
  });

describe('access-token clock tolerance', () => {
  it('accepts a token that expired 20 s ago (within the 30 s tolerance)', async () => {
    expect((await call(-20)).status).toBe(200);
  });

  it('rejects a token that expired 40 s ago, saying it expired', async () => {
    const response = await call(-40);
    expect(response.status).toBe(401);
    expect(response.body.detail).toBe('The access token has expired.');
  });
});
