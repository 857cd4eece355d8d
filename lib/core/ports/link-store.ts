import type { PaymentLink } from '../domain/payment-link.js';

/**
 * Payment links (SPEC 4.14). Every change is a single conditional write (StoreConflictError
 * otherwise): the order is attached once, a cancellation happens once.
 */
export interface LinkStore {
  create(link: PaymentLink): Promise<void>;
  get(linkRef: string): Promise<PaymentLink | undefined>;
  attachOrder(linkRef: string, orderRef: string): Promise<void>;
  /** Under `cancelId`, the cancel request's own id: a retry that meets its own landed write recognises it. */
  cancel(linkRef: string, at: string, cancelId: string): Promise<PaymentLink>;
  /** 'undone': the cancel `cancelId` no longer stands; 'final': a payment made it final first. */
  undoCancel(linkRef: string, cancelId: string): Promise<'undone' | 'final'>;
  /** A payment that found the link cancelled makes the cancel final (StoreConflictError if it is not cancelled any more). */
  makeCancelFinal(linkRef: string, at: string): Promise<void>;
}
