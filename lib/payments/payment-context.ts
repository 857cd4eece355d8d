import type { Principal } from '../auth/principal.js';
import type { MerchantConfig } from '../domain/merchant.js';
import type { Order } from '../domain/order.js';
import { effectiveEnablement, type Enablement, type PaymentMethodsConfig } from '../domain/payment-methods.js';
import type { Payment } from '../domain/payment.js';
import { NotFoundError } from '../errors.js';
import { orderInScope } from '../services/orders.js';
import type { PaymentDeps } from './deps.js';

export interface PaymentContext {
  order: Order;
  payment: Payment;
  merchant: MerchantConfig | undefined;
  enablement: Enablement;
  platform: PaymentMethodsConfig | undefined;
  tenant: PaymentMethodsConfig | undefined;
}

/**
 * The payment under that outlet and order, in the caller's scope (404 otherwise, before any
 * crypto: the endpoint is no oracle for other tenants' payments), with its merchant and the
 * effective enablement, read in parallel.
 */
export async function loadPaymentContext(
  deps: Pick<PaymentDeps, 'orders' | 'config'>,
  principal: Principal,
  ids: { outletId: string; orderRef: string; paymentRef: string },
): Promise<PaymentContext> {
  const { order, payments } = await orderInScope(deps, principal, ids.outletId, ids.orderRef);
  const payment = payments.find((candidate) => candidate.paymentRef === ids.paymentRef);
  if (!payment) throw new NotFoundError();
  const [merchant, platform, tenant] = await Promise.all([
    deps.config.getMerchant(order.merchantRef),
    deps.config.getPlatformMethods(),
    deps.config.getTenantMethods(order.tenantRef),
  ]);
  return { order, payment, merchant, enablement: effectiveEnablement(platform, tenant, merchant !== undefined), platform, tenant };
}
