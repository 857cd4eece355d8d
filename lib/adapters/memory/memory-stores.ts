import { MemoryConfigStore } from './config-store.js';
import { MemoryLinkStore } from './link-store.js';
import { MemoryOrderStore } from './order-store.js';
import { MemoryOutboxStore } from './outbox-store.js';
import { MemoryPaymentOperationsStore } from './payment-operations-store.js';
import { MemoryPaymentStore } from './payment-store.js';
import { MemoryReplayStore } from './replay-store.js';
import { MemorySessionStore } from './session-store.js';
import { MemoryTables } from './tables.js';
import { MemoryWebhookConfigStore } from './webhook-config-store.js';

export type MemoryStores = ReturnType<typeof createMemoryStores>;

/**
 * Every store port over one shared in-memory state, as the DynamoDB stores share their tables:
 * what the core unit tests run on (test/core), in the spirit of hyperswitch's `MockDb`. The
 * conditions are the DynamoDB stores' own, and test/adapters/store-contract.test.ts runs the
 * same assertions against both so that they cannot drift. `tables` is there for tests that
 * inspect or arrange what is stored (an outbox, an expired claim).
 */
export function createMemoryStores(options: { replayTtlSeconds?: number } = {}) {
  const tables = new MemoryTables();
  return {
    tables,
    config: new MemoryConfigStore(tables),
    orders: new MemoryOrderStore(tables),
    payments: new MemoryPaymentStore(tables),
    operations: new MemoryPaymentOperationsStore(tables),
    replay: new MemoryReplayStore(tables, options.replayTtlSeconds),
    links: new MemoryLinkStore(tables),
    sessions: new MemorySessionStore(tables),
    webhooks: new MemoryWebhookConfigStore(tables),
    outbox: new MemoryOutboxStore(tables),
  };
}

export {
  MemoryConfigStore,
  MemoryLinkStore,
  MemoryOrderStore,
  MemoryOutboxStore,
  MemoryPaymentOperationsStore,
  MemoryPaymentStore,
  MemoryReplayStore,
  MemorySessionStore,
  MemoryTables,
  MemoryWebhookConfigStore,
};
