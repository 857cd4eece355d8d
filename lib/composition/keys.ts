import { kmsClient } from './aws.js';
import { keysConfig } from './config/keys-config.js';
import { PayloadKeyVault } from '../adapters/kms/payload-key-vault.js';

/** Module scope on purpose: public keys fetched from KMS survive across warm invocations. */
export const payloadKeyVault = new PayloadKeyVault(kmsClient, keysConfig.PAYLOAD_KEY_IDS, {
  networkKids: keysConfig.PAYLOAD_KEY_NETWORK_KIDS,
});
