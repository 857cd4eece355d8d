import { documentClient } from '../../lib/adapters/aws/clients.js';
import { serviceConfig } from '../../lib/composition/config/service-config.js';
import type { ConfirmationDispatch } from '../../lib/core/network/confirmation-delivery.js';
import type { NetworkClient } from '../../lib/core/ports/network-client.js';
import { ConfirmationRepository } from '../../lib/adapters/dynamodb/confirmation-repository.js';

/** This test file's confirmation items (its own tables, like every test file's). */
export const confirmationRepository = () => new ConfirmationRepository(documentClient, serviceConfig.ORDERS_TABLE);

/** The worker's confirmations side with the given network clients (none: the webhook tests). */
export function confirmationsWith(clients: Record<string, NetworkClient> = {}): ConfirmationDispatch {
  return { repository: confirmationRepository(), clients };
}
