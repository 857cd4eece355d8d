import { SSMClient } from '@aws-sdk/client-ssm';
import { withDeadlines } from '../adapters/aws/clients.js';
import { AWS_CLIENT_DEFAULTS } from './aws.js';
import { SANDBOX_NETWORK } from '../core/domain/networks.js';
import { networkConfirmationsConfig as config } from './config/network-confirmations-config.js';
import { logger } from '../core/ports/logger.js';
import { confirmationDeliverer } from '../core/network/confirmation-deliverer.js';
import { ssmCredentials } from '../adapters/network/mastercard/credentials.js';
import { MastercardConfirmationsClient } from '../adapters/network/mastercard/confirmations-client.js';
import type { NetworkClient } from '../core/ports/network-client.js';
import { SandboxNetworkClient } from '../adapters/sandbox/sandbox-network-client.js';

/**
 * Network clients by the name of the network that signed the checkout (NETWORK_JWKS_URLS'
 * `mastercard`, the local stack's `sandbox`): a sandbox checkout is confirmed to the sandbox
 * SRC, a Mastercard one to Mastercard, never across.
 */
function clients(): Record<string, NetworkClient> {
  const byNetwork: Record<string, NetworkClient> = {};
  if (config.SANDBOX_CONFIRMATIONS_URL) byNetwork[SANDBOX_NETWORK] = new SandboxNetworkClient(config.SANDBOX_CONFIRMATIONS_URL);
  if (config.MASTERCARD_CONFIRMATIONS_URL && config.MASTERCARD_SRC_CLIENT_ID && config.MASTERCARD_API_CREDENTIALS_PARAMETER_ARN) {
    // The same connect/request timeouts and call budget as DynamoDB's and KMS's (SPEC §6).
    const ssm = withDeadlines(new SSMClient(AWS_CLIENT_DEFAULTS));
    byNetwork.mastercard = new MastercardConfirmationsClient(
      { url: config.MASTERCARD_CONFIRMATIONS_URL, srcClientId: config.MASTERCARD_SRC_CLIENT_ID },
      ssmCredentials(ssm, config.MASTERCARD_API_CREDENTIALS_PARAMETER_ARN),
      logger.child({ component: 'mastercardConfirmations' }),
    );
  }
  return byNetwork;
}

/** The outbox worker's deliverer of network confirmations (SPEC 4.3): same outbox, same schedule as webhooks. */
export const networkConfirmationDeliverer = confirmationDeliverer(clients());
