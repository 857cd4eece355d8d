import { createMemoryStores } from '../../../lib/adapters/memory/memory-stores.js';
import type { ConfigStore } from '../../../lib/core/ports/config-store.js';
import type { LinkStore } from '../../../lib/core/ports/link-store.js';
import type { OrderStore } from '../../../lib/core/ports/order-store.js';
import type { MerchantEventStore, OutboxStore } from '../../../lib/core/ports/outbox-store.js';
import type { PaymentOperationsStore } from '../../../lib/core/ports/payment-operations-store.js';
import type { PaymentStore } from '../../../lib/core/ports/payment-store.js';
import type { ReplayStore } from '../../../lib/core/ports/replay-store.js';
import type { SessionStore } from '../../../lib/core/ports/session-store.js';
import type { WebhookConfigStore } from '../../../lib/core/ports/webhook-config-store.js';

export type StoreEngine = 'memory' | 'dynamodb';

/** Every store port, from one engine, over one shared state (as the service wires them). */
export interface ContractStores {
  engine: StoreEngine;
  payments: PaymentStore;
  operations: PaymentOperationsStore;
  orders: OrderStore;
  config: ConfigStore;
  replay: ReplayStore;
  links: LinkStore;
  sessions: SessionStore;
  webhooks: WebhookConfigStore;
  outbox: OutboxStore & MerchantEventStore;
}

/**
 * The stores of an engine: the in-memory ones, or the DynamoDB ones over the tables the
 * integration project's setup made for this file (test/support/env.ts). The DynamoDB modules are
 * loaded only for that engine, so the core project never loads the AWS SDK.
 */
export async function contractStores(engine: StoreEngine): Promise<ContractStores> {
  if (engine === 'memory') return { engine, ...createMemoryStores() };
  const [{ documentClient }, payments, operations, orders, config, replay, links, sessions, webhooks, events] = await Promise.all([
    import('../../../lib/composition/aws.js'),
    import('../../../lib/adapters/dynamodb/payment-repository.js'),
    import('../../../lib/adapters/dynamodb/payment-operations-repository.js'),
    import('../../../lib/adapters/dynamodb/order-repository.js'),
    import('../../../lib/adapters/dynamodb/config-repository.js'),
    import('../../../lib/adapters/dynamodb/replay-repository.js'),
    import('../../../lib/adapters/dynamodb/payment-link-repository.js'),
    import('../../../lib/adapters/dynamodb/session-repository.js'),
    import('../../../lib/adapters/dynamodb/webhook-config-repository.js'),
    import('../../../lib/adapters/dynamodb/event-repository.js'),
  ]);
  const table = (name: string) => {
    const value = process.env[name];
    if (!value) throw new Error(`${name} is not set: the DynamoDB half of the store contract runs in the integration project`);
    return value;
  };
  const ordersTable = table('ORDERS_TABLE');
  return {
    engine,
    payments: new payments.PaymentRepository(documentClient, ordersTable),
    operations: new operations.PaymentOperationsRepository(documentClient, ordersTable),
    orders: new orders.OrderRepository(documentClient, ordersTable),
    config: new config.ConfigRepository(documentClient, table('CONFIG_TABLE')),
    replay: new replay.ReplayRepository(documentClient, table('REPLAY_TABLE')),
    links: new links.PaymentLinkRepository(documentClient, ordersTable),
    sessions: new sessions.SessionRepository(documentClient, table('SESSIONS_TABLE'), ordersTable),
    webhooks: new webhooks.WebhookConfigRepository(documentClient, table('CONFIG_TABLE')),
    outbox: new events.EventRepository(documentClient, ordersTable),
  };
}
