import type { MerchantConfig } from '../domain/merchant.js';
import { effectiveEnablement, type Enablement } from '../domain/payment-methods.js';
import type { ConfigRepository } from '../repositories/config-repository.js';

/** Reads the three levels in parallel: platform, tenant, and whether the merchant is onboarded. */
export async function loadEnablement(
  config: ConfigRepository,
  tenantRef: string,
  merchant: MerchantConfig | undefined,
): Promise<Enablement> {
  const [platform, tenant] = await Promise.all([config.getPlatformMethods(), config.getTenantMethods(tenantRef)]);
  return effectiveEnablement(platform, tenant, merchant !== undefined);
}
