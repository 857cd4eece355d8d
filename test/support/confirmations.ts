import { documentClient } from '../../lib/composition/aws.js';
import { ConfirmationRepository } from '../../lib/adapters/dynamodb/confirmation-repository.js';
import { serviceConfig } from '../../lib/composition/config/service-config.js';

/** This test file's confirmation items (its own tables, like every test file's). */
export const confirmationRepository = () => new ConfirmationRepository(documentClient, serviceConfig.ORDERS_TABLE);
