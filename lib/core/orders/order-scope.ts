import type { Principal } from '../auth/principal.js';
import { coversOrder } from '../auth/scope.js';
import { NotFoundError } from '../errors.js';
import type { OrderStore, OrderSnapshot } from '../ports/order-store.js';

/**
 * The order with its payments, if it exists under that outlet and the caller's scope covers it
 * (a hosted-session token covers its one order); 404 otherwise, either way.
 */
export async function orderInScope(
  deps: { orders: Pick<OrderStore, 'get'> },
  principal: Principal,
  outletId: string,
  orderRef: string,
  /** How to read the order instead of `deps.orders.get` (one already read: payment-context.ts). */
  read: () => Promise<OrderSnapshot | undefined> = () => deps.orders.get(orderRef),
): Promise<OrderSnapshot> {
  if (principal.kind === 'session' && principal.orderRef !== orderRef) throw new NotFoundError();
  const found = await read();
  if (!found || found.order.outletId !== outletId || !coversOrder(principal, found.order)) throw new NotFoundError();
  return found;
}
