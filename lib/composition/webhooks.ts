import { documentClient } from './aws.js';
import { serviceConfig } from './config/service-config.js';
import { WebhookConfigRepository } from '../adapters/dynamodb/webhook-config-repository.js';

/**
 * Webhook configuration storage, without KMS: what the GET function needs (it never sees a
 * secret). Sealing and opening secrets live in ./webhook-secrets.ts.
 */
export const webhookConfigRepository = new WebhookConfigRepository(documentClient, serviceConfig.CONFIG_TABLE);
