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
      return principal.tenantRef === merchant.tenantRef && (principal.merchantRef === undefined || principal.merchantRef === merchant.merchantRef);
    case 'session':
      return principal.tenantRef === merchant.tenantRef && principal.merchantRef === merchant.merchantRef;
  }
}

/**
 * 4.1: a merchant's configuration. An outlet-narrowed tenant token covers only merchants that
 * own at least one of its outlets (`outlets` of the merchant's configuration).
 */
export function coversMerchantConfig(principal: Principal, merchant: MerchantScope & { outlets: readonly string[] }): boolean {
  if (!coversMerchant(principal, merchant)) return false;
  if (principal.kind !== 'tenant' || principal.outletIds === undefined) return true;
  const narrowed = principal.outletIds;
  return merchant.outlets.some((outletId) => narrowed.has(outletId));
}

/**
 * 4.15 (SPEC §1): a merchant-wide resource — its webhook configuration and signing secrets, its
 * events (which carry every outlet's payments). Never reached through one outlet: an
 * outlet-narrowed tenant token covers the merchant only when it is narrowed to every outlet the
 * merchant has (and it has at least one; a token naming outlets is never a key to a merchant it
 * names none of). A hosted-session token is one order, never the whole merchant.
 */
export function coversWholeMerchant(principal: Principal, merchant: MerchantScope & { outlets: readonly string[] }): boolean {
  if (!coversMerchant(principal, merchant)) return false;
  switch (principal.kind) {
    case 'platform':
      return true;
    case 'tenant': {
      const narrowed = principal.outletIds;
      return narrowed === undefined || (merchant.outlets.length > 0 && merchant.outlets.every((outletId) => narrowed.has(outletId)));
    }
    case 'session':
      return false;
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
