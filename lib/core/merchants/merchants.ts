import type { Principal } from '../auth/principal.js';
import { coversMerchantConfig, coversWholeMerchant } from '../auth/scope.js';
import type { MerchantConfig } from '../domain/merchant.js';
import { NotFoundError } from '../errors.js';
import type { ConfigStore } from '../ports/config-store.js';

/**
 * The merchant, if it exists and the caller's scope covers it (an outlet-narrowed token covers
 * only merchants owning one of its outlets, SPEC §1); 404 otherwise, either way — the service
 * never confirms that another tenant's merchant exists. 4.1.
 */
export async function merchantInScope(config: Pick<ConfigStore, 'getMerchant'>, principal: Principal, merchantRef: string): Promise<MerchantConfig> {
  const merchant = await config.getMerchant(merchantRef);
  if (!merchant || !coversMerchantConfig(principal, merchant)) throw new NotFoundError();
  return merchant;
}

/**
 * The merchant, if it exists and the caller's scope covers all of it (SPEC §1, 4.15: an
 * outlet-narrowed token only when narrowed to every outlet the merchant has); 404 otherwise,
 * exactly like a merchant that does not exist. Webhook configuration, secrets and events.
 */
export async function wholeMerchantInScope(config: Pick<ConfigStore, 'getMerchant'>, principal: Principal, merchantRef: string): Promise<MerchantConfig> {
  const merchant = await config.getMerchant(merchantRef);
  if (!merchant || !coversWholeMerchant(principal, merchant)) throw new NotFoundError();
  return merchant;
}
