import type { MerchantConfig } from '../domain/merchant.js';
import { effectiveEnablement, type Enablement, type PaymentMethodsConfig } from '../domain/payment-methods.js';
import type { ConfigStore } from '../ports/config-store.js';

/** A merchant with the platform and tenant configuration that decide what it may offer. */
export interface MerchantStanding {
  merchant: MerchantConfig | undefined;
  platform: PaymentMethodsConfig | undefined;
  tenant: PaymentMethodsConfig | undefined;
  enablement: Enablement;
}

/** Merchant, platform and tenant in one parallel round trip (orders, payments). */
export async function loadStanding(config: ConfigStore, tenantRef: string, merchantRef: string): Promise<MerchantStanding> {
  const [merchant, platform, tenant] = await Promise.all([config.getMerchant(merchantRef), config.getPlatformMethods(), config.getTenantMethods(tenantRef)]);
  return { merchant, platform, tenant, enablement: effectiveEnablement(platform, tenant, merchant !== undefined) };
}

/** The same, for a caller that already holds the merchant (4.1, 4.7). */
export async function loadEnablement(config: ConfigStore, tenantRef: string, merchant: MerchantConfig | undefined): Promise<Enablement> {
  const [platform, tenant] = await Promise.all([config.getPlatformMethods(), config.getTenantMethods(tenantRef)]);
  return effectiveEnablement(platform, tenant, merchant !== undefined);
}
