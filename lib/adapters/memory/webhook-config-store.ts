import type { WebhookConfig } from '../../core/domain/webhook-config.js';
import type { WebhookConfigStore } from '../../core/ports/webhook-config-store.js';
import { assertVersion } from './config-store.js';
import { copy, type MemoryTables } from './tables.js';

/** A merchant's webhook configuration in memory: versioned writes (0 creates), like the DynamoDB store. */
export class MemoryWebhookConfigStore implements WebhookConfigStore {
  constructor(private readonly tables: MemoryTables) {}

  async get(merchantRef: string): Promise<WebhookConfig | undefined> {
    const config = this.tables.webhookConfigs.get(merchantRef);
    return config && copy(config);
  }

  async put(config: WebhookConfig, expectedVersion: number): Promise<void> {
    assertVersion(this.tables.webhookConfigs.get(config.merchantRef), expectedVersion);
    this.tables.webhookConfigs.set(config.merchantRef, copy(config));
  }
}
