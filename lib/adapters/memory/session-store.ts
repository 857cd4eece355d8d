import type { HostedSession } from '../../core/domain/hosted-session.js';
import type { OrderSnapshot } from '../../core/ports/order-store.js';
import type { SessionStore } from '../../core/ports/session-store.js';
import { snapshotOf } from './order-store.js';
import { conflict, copy, type MemoryTables } from './tables.js';

/** Hosted sessions by token hash in memory: create-only; read back even when expired (the caller decides). */
export class MemorySessionStore implements SessionStore {
  constructor(private readonly tables: MemoryTables) {}

  async create(session: HostedSession): Promise<void> {
    const existing = this.tables.sessions.get(session.tokenHash);
    if (existing) throw conflict(existing);
    this.tables.sessions.set(session.tokenHash, copy(session));
  }

  async findByTokenHash(tokenHash: string): Promise<HostedSession | undefined> {
    const session = this.tables.sessions.get(tokenHash);
    return session && copy(session);
  }

  async findWithPayment(
    tokenHash: string,
    ids: { orderRef: string; paymentRef: string },
  ): Promise<{ session: HostedSession | undefined; order: OrderSnapshot | undefined }> {
    return { session: await this.findByTokenHash(tokenHash), order: snapshotOf(this.tables, ids.orderRef, ids.paymentRef) };
  }
}
