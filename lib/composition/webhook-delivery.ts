import './logging.js'; // the configured log level, before anything logs
import '../adapters/metrics/emf-recorder.js'; // installs the EMF adapter behind the metrics port
import { documentClient } from './aws.js';
import { serviceConfig } from './config/service-config.js';
import { webhookDeliveryConfig } from './config/webhook-delivery-config.js';
import { EventRepository } from '../adapters/dynamodb/event-repository.js';
import { RETRY_DELAYS_MS, type OutboxWorkerDeps } from '../core/outbox/worker.js';
import { webhookDeliverer, type WebhookEndpoints } from '../core/webhooks/webhook-deliverer.js';
import { HttpWebhookSender } from '../adapters/webhooks/sender.js';
import { signingSecrets } from '../core/webhooks/webhook-config.js';
import { networkConfirmationDeliverer } from './network-confirmations.js';
import { processorRecoveryDeliverer } from '../core/payments/processor-recovery.js';
import { webhookConfigDeps } from './webhook-secrets.js';
import { clock } from './clock.js';

/** The delivery worker: event items in the orders table, secrets opened through KMS, the guarded sender. */
/** Where a merchant's events go, with the secrets (opened through KMS) that sign them. */
export const webhookEndpoints: WebhookEndpoints = {
  endpointFor: async (merchantRef, now) => {
    const endpoint = await signingSecrets(webhookConfigDeps, merchantRef, now);
    // A sandbox merchant's loopback URL is delivered to only where loopback is the merchant's machine.
    return endpoint && { ...endpoint, allowLoopback: endpoint.allowLoopback && webhookDeliveryConfig.WEBHOOK_LOOPBACK_DELIVERY === 'allowed' };
  },
};

export const webhookDispatchDeps: OutboxWorkerDeps = {
  store: new EventRepository(documentClient, serviceConfig.ORDERS_TABLE),
  deliverers: {
    webhook: webhookDeliverer({
      endpoints: webhookEndpoints,
      sender: new HttpWebhookSender(), // SPEC 4.15's 10 s timeout: its default (DEFAULT_TIMEOUT_MS)
    }),
    confirmation: networkConfirmationDeliverer, // Mastercard confirmations (4.3): same outbox, same schedule
    // Pending processor operations (SPEC 4.16), asked about on the same schedule; loaded on first use.
    recovery: processorRecoveryDeliverer(async () => (await import('./processor-recovery.js')).recoveryDeps),
  },
  now: clock,
  // A claim outlives the 10 s send and the record that follows it.
  settings: { retryDelaysMs: RETRY_DELAYS_MS, claimMs: 30_000 },
};

/** The orders table's stream records as the worker's due items (the stream trigger's fast path). */
export { dueFromStream } from '../adapters/dynamodb/outbox-stream.js';
