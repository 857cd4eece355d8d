import type { PaymentLink } from '../../core/domain/payment-link.js';
import type { LinkStore } from '../../core/ports/link-store.js';
import { conflict, copy, type MemoryTables } from './tables.js';

/**
 * Payment links in memory, with the DynamoDB store's conditions (payment-link-repository.ts):
 * created once, its order attached once (never to a cancelled link), cancelled once and only
 * before expiry, a cancel undone only while no payment made it final.
 */
export class MemoryLinkStore implements LinkStore {
  constructor(private readonly tables: MemoryTables) {}

  async create(link: PaymentLink): Promise<void> {
    const existing = this.tables.links.get(link.linkRef);
    if (existing) throw conflict(existing);
    this.tables.links.set(link.linkRef, copy(link));
  }

  async get(linkRef: string): Promise<PaymentLink | undefined> {
    const link = this.tables.links.get(linkRef);
    return link && copy(link);
  }

  async attachOrder(linkRef: string, orderRef: string): Promise<void> {
    const link = this.tables.links.get(linkRef);
    if (!link || link.orderRef !== undefined || link.cancelledAt !== undefined) throw conflict(link);
    link.orderRef = orderRef;
  }

  /** ISO times compare as strings: cancelled only while `at` is before the expiry. */
  async cancel(linkRef: string, at: string, cancelId: string): Promise<PaymentLink> {
    const link = this.tables.links.get(linkRef);
    if (!link || link.cancelledAt !== undefined || !(link.expiresAt > at)) throw conflict(link);
    Object.assign(link, { cancelledAt: at, cancelId });
    return copy(link);
  }

  async undoCancel(linkRef: string, cancelId: string): Promise<'undone' | 'final'> {
    const link = this.tables.links.get(linkRef);
    if (!link || link.cancelId !== cancelId || link.cancelFinalAt !== undefined) return link?.cancelId === cancelId ? 'final' : 'undone';
    delete link.cancelledAt;
    delete link.cancelId;
    return 'undone';
  }

  async makeCancelFinal(linkRef: string, at: string): Promise<void> {
    const link = this.tables.links.get(linkRef);
    if (!link || link.cancelledAt === undefined) throw conflict(link);
    link.cancelFinalAt ??= at;
  }
}
