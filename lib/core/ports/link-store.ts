import type { PaymentLink } from '../domain/payment-link.js';

/**
 * Payment links (SPEC 4.14). Every change is a single conditional write (StoreConflictError
 * otherwise): the order is attached once, a cancellation happens once.
 */
export interface LinkStore {
  create(link: PaymentLink): Promise<void>;
  get(linkRef: string): Promise<PaymentLink | undefined>;
  attachOrder(linkRef: string, orderRef: string): Promise<void>;
  cancel(linkRef: string, at: string): Promise<PaymentLink>;
  undoCancel(linkRef: string, at: string): Promise<void>;
}
