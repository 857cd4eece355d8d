import type { Principal } from '../auth/principal.js';
import { hashSessionToken, newSessionToken } from '../auth/session-token.js';
import { FINAL_STATES } from '../domain/payment.js';
import { PaymentStateConflictError } from '../errors.js';
import { epochSeconds, nowIso } from '../repositories/dynamo.js';
import type { OrderRepository } from '../repositories/order-repository.js';
import type { SessionRepository } from '../repositories/session-repository.js';
import { orderInScope } from './orders.js';

export interface HostedSessionDeps {
  orders: OrderRepository;
  sessions: SessionRepository;
  ttlSeconds: number;
}

/**
 * 4.9: a hosted-session token for one order. The token is returned once and only its
 * SHA-256 is stored. A paid or failed order gets no new session.
 */
export async function createHostedSession(
  deps: HostedSessionDeps,
  principal: Principal,
  outletId: string,
  orderRef: string,
  baseUrl: string,
) {
  const { order, payments } = await orderInScope(deps, principal, outletId, orderRef);
  if (payments.length > 0 && payments.every((payment) => FINAL_STATES.has(payment.state))) {
    throw new PaymentStateConflictError('This order is already completed.');
  }
  const token = newSessionToken();
  const expiresAt = epochSeconds() + deps.ttlSeconds;
  await deps.sessions.create({
    tokenHash: hashSessionToken(token),
    orderRef,
    outletId,
    merchantRef: order.merchantRef,
    tenantRef: order.tenantRef,
    expiresAt,
    createdAt: nowIso(),
  });
  return {
    sessionToken: token,
    expiresAt: new Date(expiresAt * 1000).toISOString(),
    checkoutUrl: `${baseUrl}/checkout?session=${encodeURIComponent(token)}`,
  };
}
