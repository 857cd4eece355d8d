import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SSMClient } from '@aws-sdk/client-ssm';
import { withDeadlines } from '../adapters/aws/clients.js';
import { AwsSecretSource, CachingSecretSource } from '../adapters/secrets/secret-source.js';
import { AWS_CLIENT_DEFAULTS } from './aws.js';
import { serviceConfig } from './config/service-config.js';

/**
 * Secrets by ARN (processor credentials and notification keys, SPEC 4.7), cached five minutes in
 * a warm function. Imported dynamically, only by a function that serves a merchant with a
 * processor: the SDK clients are not part of anyone else's cold start.
 */
export const secretSource = new CachingSecretSource(
  new AwsSecretSource({
    secretsManager: withDeadlines(
      new SecretsManagerClient({
        ...AWS_CLIENT_DEFAULTS,
        ...(serviceConfig.SECRETS_MANAGER_ENDPOINT ? { endpoint: serviceConfig.SECRETS_MANAGER_ENDPOINT } : {}),
      }),
    ),
    ssm: withDeadlines(new SSMClient({ ...AWS_CLIENT_DEFAULTS, ...(serviceConfig.SSM_ENDPOINT ? { endpoint: serviceConfig.SSM_ENDPOINT } : {}) })),
  }),
);
