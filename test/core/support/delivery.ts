import { processDue, RETRY_DELAYS_MS, type DueOutcome, type OutboxWorkerDeps } from '../../../lib/core/outbox/worker.js';
import { confirmationDeliverer } from '../../../lib/core/network/confirmation-deliverer.js';
import { processorRecoveryDeliverer } from '../../../lib/core/payments/processor-recovery.js';
import { putWebhookConfig, rotateWebhookSecret, signingSecrets, type WebhookConfigDeps } from '../../../lib/core/webhooks/webhook-config.js';
import { webhookDeliverer } from '../../../lib/core/webhooks/webhook-deliverer.js';
import { FakeSealer, httpsOnly, RecordingNetwork, RecordingReceiver } from './webhooks.js';
import { MERCHANT, platform, type CoreWorld } from './world.js';

/**
 * The outbox worker of a world, wired as lib/composition wires it: the in-memory outbox store, the
 * webhook deliverer (secrets opened by the sealer, sent to the merchant's receiver) and the
 * confirmation deliverer (one client per network), the processor recovery (the world's lifecycle), the SPEC's retry schedule and a 30 s claim.
 */
export function deliveryOf(world: CoreWorld) {
  const sealer = new FakeSealer();
  const webhookDeps: WebhookConfigDeps = { merchants: world.stores.config, webhooks: world.stores.webhooks, sealer, now: world.clock.now, urls: httpsOnly };
  const secrets: string[] = [];
  const receiver = new RecordingReceiver(() => secrets);
  const networks = { mastercard: new RecordingNetwork(), visa: new RecordingNetwork() };
  const worker: OutboxWorkerDeps = {
    store: world.stores.outbox,
    deliverers: {
      webhook: webhookDeliverer({ endpoints: { endpointFor: (merchantRef, now) => signingSecrets(webhookDeps, merchantRef, now) }, sender: receiver }),
      confirmation: confirmationDeliverer(networks),
      // Processor recoveries settle a pending operation with the world's own lifecycle and acquirer.
      recovery: processorRecoveryDeliverer(async () => ({
        ...world.lifecycle,
        payments: world.stores.payments,
        settings: { ...world.lifecycle.settings, leaseMs: world.payments.settings.leaseMs },
      })),
    },
    now: world.clock.now,
    settings: { retryDelaysMs: RETRY_DELAYS_MS, claimMs: 30_000 },
  };
  return {
    worker,
    webhookDeps,
    sealer,
    receiver,
    networks,
    secrets,
    /** PUT the merchant's webhook (4.15); the receiver learns the secret shown once. */
    async configure(url = 'https://hooks.shop.example/events') {
      const created = await putWebhookConfig(webhookDeps, platform, MERCHANT, { url });
      if (created.signingSecret) secrets.unshift(created.signingSecret);
    },
    async rotate() {
      secrets.unshift((await rotateWebhookSecret(webhookDeps, platform, MERCHANT)).signingSecret);
    },
    /** One sweep: every item due now, each processed once (what the scheduled worker does). */
    async sweep(): Promise<DueOutcome[]> {
      const outcomes: DueOutcome[] = [];
      for (const item of await world.stores.outbox.due(world.clock.now(), 25)) outcomes.push(...(await processDue(worker, item, world.logger)));
      return outcomes;
    },
  };
}
