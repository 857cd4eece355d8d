import { documentClient } from './aws.js';
import { serviceConfig } from './config/service-config.js';
import { ProcessorInboxRepository } from '../adapters/dynamodb/processor-inbox-repository.js';

/** The processors' inbox and reference locations (SPEC 4.16), in the orders table. */
export const processorInbox = new ProcessorInboxRepository(documentClient, serviceConfig.ORDERS_TABLE);
