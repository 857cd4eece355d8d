import type { OutboxStore } from '../../lib/core/ports/outbox-store.js';
import type { NetworkClient } from '../../lib/core/ports/network-client.js';
import type { WebhookSender } from '../../lib/core/ports/webhook-sender.js';
import { confirmationDeliverer } from '../../lib/core/network/confirmation-deliverer.js';
import { processorRecoveryDeliverer } from '../../lib/core/payments/processor-recovery.js';
import { RETRY_DELAYS_MS, type OutboxWorkerDeps } from '../../lib/core/outbox/worker.js';
import { webhookDeliverer, type WebhookEndpoints } from '../../lib/core/webhooks/webhook-deliverer.js';

export interface WorkerOptions {
  store: OutboxStore;
  endpoints: WebhookEndpoints;
  sender: WebhookSender;
  /** Network clients by network name (none: webhooks only). */
  networkClients?: Record<string, NetworkClient>;
  now?: () => number;
  settings?: OutboxWorkerDeps['settings'];
}

/** The outbox worker as the delivery function wires it, with the test's store, endpoints, sender, clients and clock. */
export function outboxWorker(options: WorkerOptions): OutboxWorkerDeps {
  return {
    store: options.store,
    deliverers: {
      webhook: webhookDeliverer({ endpoints: options.endpoints, sender: options.sender }),
      confirmation: confirmationDeliverer(options.networkClients ?? {}),
      recovery: processorRecoveryDeliverer(async () => (await import('../../lib/composition/processor-recovery.js')).recoveryDeps),
    },
    now: options.now ?? Date.now,
    settings: options.settings ?? { retryDelaysMs: RETRY_DELAYS_MS, claimMs: 15_000 },
  };
}
