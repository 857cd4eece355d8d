import type { HostedSession } from '../domain/hosted-session.js';
import type { OrderSnapshot } from './order-store.js';

/** Hosted sessions keyed by the SHA-256 of their token. */
export interface SessionStore {
  /** Create-only (StoreConflictError if the token hash exists). */
  create(session: HostedSession): Promise<void>;
  /** The stored session even if expired (the caller decides); strongly consistent. */
  findByTokenHash(tokenHash: string): Promise<HostedSession | undefined>;
  /**
   * The session and, in the same strongly consistent read, the order and the one payment a
   * payment route names (a session-token payment makes one read where it would make two).
   */
  findWithPayment(
    tokenHash: string,
    ids: { orderRef: string; paymentRef: string },
  ): Promise<{ session: HostedSession | undefined; order: OrderSnapshot | undefined }>;
}
