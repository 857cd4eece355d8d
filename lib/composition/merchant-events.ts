import { documentClient } from './aws.js';
import { serviceConfig } from './config/service-config.js';
import { EventRepository } from '../adapters/dynamodb/event-repository.js';
import type { MerchantEventsDeps } from '../core/webhooks/merchant-events.js';
import { configRepository } from './core.js';
import { clock } from './clock.js';

/** The events endpoints: the orders table's event partitions and the merchant config; no KMS. */
export const merchantEventsDeps: MerchantEventsDeps = {
  config: configRepository,
  events: new EventRepository(documentClient, serviceConfig.ORDERS_TABLE),
  now: clock,
};
