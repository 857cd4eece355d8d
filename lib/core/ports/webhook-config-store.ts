import type { WebhookConfig } from '../domain/webhook-config.js';
import type { ReadOptions } from './config-store.js';

/** The storage port of the webhook-configuration use cases. */
export interface WebhookConfigStore {
  get(merchantRef: string, options?: ReadOptions): Promise<WebhookConfig | undefined>;
  /**
   * Creates (`expectedVersion` 0: only if none exists) or replaces the version the caller
   * read; StoreConflictError when someone else wrote meanwhile, so no write is ever lost.
   */
  put(config: WebhookConfig, expectedVersion: number): Promise<void>;
}
