import { kmsClient } from './aws.js';
import { webhookSecretsConfig } from './config/webhook-secrets-config.js';
import { CachingSecretSealer } from '../adapters/kms/opened-secret-cache.js';
import { KmsSecretSealer } from '../adapters/kms/webhook-secret-sealer.js';
import type { WebhookConfigDeps } from '../core/webhooks/webhook-config.js';
import { configRepository } from './core.js';
import { webhookConfigRepository } from './webhooks.js';
import { dnsWebhookUrlCheck } from '../adapters/webhooks/url-guard.js';
import { clock } from './clock.js';

/**
 * The functions that seal or open webhook signing secrets (PUT, rotate-secret, the delivery
 * worker). Module scope on purpose: opened secrets stay cached (≤ 5 min) in a warm Lambda.
 * Only these functions load WEBHOOK_SECRETS_KEY_ID.
 */
export const webhookSecretSealer = new CachingSecretSealer(new KmsSecretSealer(kmsClient, webhookSecretsConfig.WEBHOOK_SECRETS_KEY_ID));

export const webhookConfigDeps: WebhookConfigDeps = {
  merchants: configRepository,
  webhooks: webhookConfigRepository,
  sealer: webhookSecretSealer,
  now: clock,
  urls: dnsWebhookUrlCheck(),
};
