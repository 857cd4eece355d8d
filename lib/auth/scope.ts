import type { Principal } from './principal.js';

/**
 * Scope rules (SPEC §1). Callers turn a `false` into 404, never 403, so that a token never
 * learns whether another tenant's resource exists.
 */
export interface MerchantScope {
  tenantRef: string;
  merchantRef: string;
}

export interface OutletScope extends MerchantScope {
  outletId: string;
}

export interface OrderScope extends OutletScope {
  orderRef: string;
}

export function coversMerchant(principal: Principal, merchant: MerchantScope): boolean {
  switch (principal.kind) {
    case 'platform':
      return true;
    case 'tenant':
      return (
        principal.tenantRef === merchant.tenantRef &&
        (principal.merchantRef === undefined || principal.merchantRef === merchant.merchantRef)
      );
    case 'session':
      return principal.tenantRef === merchant.tenantRef && principal.merchantRef === merchant.merchantRef;
  }
}

export function coversOutlet(principal: Principal, outlet: OutletScope): boolean {
  if (!coversMerchant(principal, outlet)) return false;
  switch (principal.kind) {
    case 'platform':
      return true;
    case 'tenant':
      return principal.outletIds === undefined || principal.outletIds.has(outlet.outletId);
    case 'session':
      return principal.outletId === outlet.outletId;
  }
}

export function coversOrder(principal: Principal, order: OrderScope): boolean {
  if (!coversOutlet(principal, order)) return false;
  return principal.kind !== 'session' || principal.orderRef === order.orderRef;
}

export function coversTenant(principal: Principal, tenantRef: string): boolean {
  return principal.kind === 'platform' || principal.tenantRef === tenantRef;
}
