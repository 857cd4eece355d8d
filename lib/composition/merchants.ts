import type { MerchantConfigDeps } from '../core/merchants/merchant-config.js';
import { clock } from './clock.js';
import { configRepository } from './core.js';
import { payloadKeyVault } from './keys.js';

/** Merchant configuration (4.1, 4.7): it names the current payload key id. */
export const merchantConfigDeps: MerchantConfigDeps = { config: configRepository, keys: payloadKeyVault, now: clock };
