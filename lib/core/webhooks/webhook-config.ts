import { StoreConflictError } from '../ports/store-conflict.js';
import type { Principal } from '../auth/principal.js';
import { wholeMerchantInScope } from '../merchants/merchants.js';
import type { MerchantConfig } from '../domain/merchant.js';
import type { WebhookConfig } from '../domain/webhook-config.js';
import { DependencyUnavailableError, InvalidRequestError, NotFoundError } from '../errors.js';

import { liveSecrets, rotateSecrets } from './rotation.js';

import { newSigningSecret } from './signing.js';
import type { WebhookConfigStore } from '../ports/webhook-config-store.js';
import type { SecretSealer } from '../ports/secret-sealer.js';
import type { WebhookUrlCheck } from '../ports/webhook-sender.js';

/** SPEC 4.15: webhook URL and signing secrets of one merchant. */
export interface WebhookConfigDeps {
  merchants: { getMerchant(merchantRef: string): Promise<MerchantConfig | undefined> };
  webhooks: WebhookConfigStore;
  sealer: SecretSealer;
  now: () => number;
  /** The check a URL passes before it is stored (https, public addresses only: SSRF). */
  urls: WebhookUrlCheck;
}

export interface WebhookConfigInput {
  url: string;
  enabled?: boolean;
}

/** A lost optimistic write re-reads and re-applies; this many tries, then 503 (retry later). */
const MAX_ATTEMPTS = 4;
const contention = () => new DependencyUnavailableError('The webhook configuration is being changed concurrently; retry.');

/**
 * PUT: creates the configuration with a new signing secret, shown in this answer only, or
 * replaces URL and `enabled` of an existing one, keeping its secrets (never shown again).
 */
export async function putWebhookConfig(deps: WebhookConfigDeps, principal: Principal, merchantRef: string, input: WebhookConfigInput) {
  const merchant = await wholeMerchantInScope(deps.merchants, principal, merchantRef);
  const url = await safeUrl(deps, merchant, input.url);
  const enabled = input.enabled ?? true;
  let fresh: { secret: string; sealed: string } | undefined;
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    // Read-modify-write: the read must see the last write (ours or a concurrent one).
    const existing = await deps.webhooks.get(merchantRef, { consistent: true });
    const now = new Date(deps.now()).toISOString();
    try {
      if (existing) {
        await deps.webhooks.put({ ...existing, url, enabled, updatedAt: now, version: existing.version + 1 }, existing.version);
        return { url, enabled };
      }
      fresh ??= await newSecret(deps, merchantRef);
      const created: WebhookConfig = {
        merchantRef,
        url,
        enabled,
        secrets: [{ sealed: fresh.sealed, createdAt: now }],
        createdAt: now,
        updatedAt: now,
        version: 1,
      };
      await deps.webhooks.put(created, 0);
      return { url, enabled, signingSecret: fresh.secret };
    } catch (error) {
      // A concurrent PUT created it first: ours becomes an update, and our secret is never shown.
      if (!(error instanceof StoreConflictError)) throw error;
    }
  }
  throw contention();
}

/** GET: the configuration without any secret (so it needs no sealer, and no KMS). */
export async function getWebhookConfig(deps: Pick<WebhookConfigDeps, 'merchants' | 'webhooks'>, principal: Principal, merchantRef: string) {
  await wholeMerchantInScope(deps.merchants, principal, merchantRef);
  // Consistent: a merchant reading right after a PUT or a rotation must see it.
  const config = await deps.webhooks.get(merchantRef, { consistent: true });
  if (!config) throw new NotFoundError('No webhook is configured for this merchant.');
  return {
    url: config.url,
    enabled: config.enabled,
    createdAt: config.createdAt,
    updatedAt: config.updatedAt,
    ...(config.secretRotatedAt ? { secretRotatedAt: config.secretRotatedAt } : {}),
  };
}

/** POST rotate-secret: a new current secret; the previous one keeps signing for 24 h. */
export async function rotateWebhookSecret(deps: WebhookConfigDeps, principal: Principal, merchantRef: string) {
  await wholeMerchantInScope(deps.merchants, principal, merchantRef);
  let fresh: { secret: string; sealed: string } | undefined;
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const existing = await deps.webhooks.get(merchantRef, { consistent: true });
    if (!existing) throw new NotFoundError('No webhook is configured for this merchant.');
    fresh ??= await newSecret(deps, merchantRef);
    const nowMs = deps.now();
    const now = new Date(nowMs).toISOString();
    const rotated = rotateSecrets(existing.secrets, { sealed: fresh.sealed, createdAt: now }, nowMs);
    try {
      await deps.webhooks.put({ ...existing, secrets: rotated.secrets, secretRotatedAt: now, updatedAt: now, version: existing.version + 1 }, existing.version);
      return { signingSecret: fresh.secret, previousSecretExpiresAt: rotated.previousExpiresAt };
    } catch (error) {
      // A concurrent rotation won: ours is applied on top of it, so neither secret is lost.
      if (!(error instanceof StoreConflictError)) throw error;
    }
  }
  throw contention();
}

/**
 * For the delivery worker: where to deliver and every secret that signs now (current first,
 * then unexpired previous ones), opened by KMS. `allowLoopback` is for re-checking the URL at
 * delivery time. Undefined when the merchant has no webhook.
 */
export async function signingSecrets(deps: Pick<WebhookConfigDeps, 'merchants' | 'webhooks' | 'sealer'>, merchantRef: string, now: number) {
  // Consistent: right after a rotation the merchant may already verify with the new secret.
  const [config, merchant] = await Promise.all([deps.webhooks.get(merchantRef, { consistent: true }), deps.merchants.getMerchant(merchantRef)]);
  if (!config || !merchant) return undefined;
  const secrets = await Promise.all(liveSecrets(config.secrets, now).map((secret) => deps.sealer.open(secret.sealed, merchantRef)));
  return { url: config.url, enabled: config.enabled, allowLoopback: merchant.environment === 'sandbox', secrets };
}

/** https, never a private address; http to a loopback host for sandbox merchants only. */
async function safeUrl(deps: WebhookConfigDeps, merchant: MerchantConfig, raw: string): Promise<string> {
  const checked = await deps.urls.check(raw, { allowLoopback: merchant.environment === 'sandbox' });
  if (!checked.safe) throw new InvalidRequestError('The webhook URL is not allowed.', { errors: [{ path: 'url', message: checked.reason }] });
  return checked.url;
}

async function newSecret(deps: WebhookConfigDeps, merchantRef: string) {
  const secret = newSigningSecret();
  return { secret, sealed: await deps.sealer.seal(secret, merchantRef) };
}
