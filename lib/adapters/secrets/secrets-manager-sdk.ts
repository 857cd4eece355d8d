/**
 * The Secrets Manager SDK as the secret source imports it, on the first read from that store
 * (./secret-source.ts, lib/composition/secrets.ts). An ESM module of our own rather than an
 * import() of the package: the package is CommonJS, and a bundle split into chunks gives an
 * import() of CommonJS its `default` only — named exports come through a static import.
 */
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

export { GetSecretValueCommand, SecretsManagerClient };
