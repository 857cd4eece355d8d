import { hashSessionToken, newSessionToken } from '../../lib/core/auth/session-token.js';
import { sessionRepository } from '../../lib/composition/core.js';
import type { World } from './endpoints.js';

/** A hosted-session token for the world's order, as 4.9 mints it (expired when `ttlSeconds` ≤ 0). */
export async function sessionTokenFor(world: Pick<World, 'orderRef' | 'outletId' | 'merchantRef' | 'tenantRef'>, ttlSeconds = 600): Promise<string> {
  const token = newSessionToken();
  await sessionRepository.create({
    tokenHash: hashSessionToken(token),
    orderRef: world.orderRef,
    outletId: world.outletId,
    merchantRef: world.merchantRef,
    tenantRef: world.tenantRef,
    expiresAt: Math.floor(Date.now() / 1000) + ttlSeconds,
    createdAt: new Date().toISOString(),
  });
  return token;
}
