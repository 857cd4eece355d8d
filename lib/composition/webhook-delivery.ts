import { documentClient } from '../aws/clients.js';
import { serviceConfig } from '../config/service-config.js';
import { EventRepository } from '../repositories/event-repository.js';
import { RETRY_DELAYS_MS, type DispatchDeps } from '../webhooks/dispatch.js';
import { HttpWebhookSender } from '../webhooks/sender.js';
import { signingSecrets } from '../webhooks/webhook-config.js';
import { webhookConfigDeps } from './webhook-secrets.js';

/** The delivery worker: event items in the orders table, secrets opened through KMS, the guarded sender. */
export const webhookDispatchDeps: DispatchDeps = {
  events: new EventRepository(documentClient, serviceConfig.ORDERS_TABLE),
  endpoints: { endpointFor: (merchantRef, now) => signingSecrets(webhookConfigDeps, merchantRef, now) },
  sender: new HttpWebhookSender({ timeoutMs: 10_000 }),
  now: Date.now,
  // A claim outlives the 10 s send and the record that follows it.
  settings: { retryDelaysMs: RETRY_DELAYS_MS, claimMs: 30_000 },
};
