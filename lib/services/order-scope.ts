import type { Principal } from '../auth/principal.js';
import { coversOrder } from '../auth/scope.js';
import { NotFoundError } from '../errors.js';
import type { OrderRepository } from '../repositories/order-repository.js';

/**
 * The order with its payments, if it exists under that outlet and the caller's scope covers it
 * (a hosted-session token covers its one order); 404 otherwise, either way.
 */
export async function orderInScope(deps: { orders: Pick<OrderRepository, 'get'> }, principal: Principal, outletId: string, orderRef: string) {
  if (principal.kind === 'session' && principal.orderRef !== orderRef) throw new NotFoundError();
  const found = await deps.orders.get(orderRef);
  if (!found || found.order.outletId !== outletId || !coversOrder(principal, found.order)) throw new NotFoundError();
  return found;
}
