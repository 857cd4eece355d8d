import { withDeadlines } from '../adapters/aws/clients.js';
import { AwsSecretSource, CachingSecretSource } from '../adapters/secrets/secret-source.js';
import { AWS_CLIENT_DEFAULTS } from './aws.js';
import { serviceConfig } from './config/service-config.js';

/**
 * Secrets by ARN (processor credentials and notification keys, SPEC 4.7; the 3DS Server's API
 * key, SPEC 4.17), cached five minutes in a warm function. The Secrets Manager and SSM clients are
 * made, their SDK packages imported, at the first read from each (lib/adapters/secrets/secret-source.ts):
 * no function's cold start loads them, the payment functions not even this module (import() at a
 * processor merchant's first payment or the first step-up).
 */
export const secretSource = new CachingSecretSource(
  new AwsSecretSource({
    secretsManager: async () => {
      const { SecretsManagerClient } = await import('../adapters/secrets/secrets-manager-sdk.js');
      const endpoint = serviceConfig.SECRETS_MANAGER_ENDPOINT;
      return withDeadlines(new SecretsManagerClient({ ...AWS_CLIENT_DEFAULTS, ...(endpoint ? { endpoint } : {}) }));
    },
    ssm: async () => {
      const { SSMClient } = await import('../adapters/secrets/ssm-sdk.js');
      const endpoint = serviceConfig.SSM_ENDPOINT;
      return withDeadlines(new SSMClient({ ...AWS_CLIENT_DEFAULTS, ...(endpoint ? { endpoint } : {}) }));
    },
  }),
);
