import type { NotificationItem } from './notifications/parse.js';

/** Which of our operations a reference names, and where its payment lives. */
export interface ReferenceLocation {
  orderRef: string;
  paymentRef: string;
  operation: 'AUTHORIZE' | 'CAPTURE' | 'REVERSAL' | 'REFUND';
}

/**
 * What the Adyen adapter keeps beside a merchant's requests (lib/adapters/dynamodb/processor-notes-repository.ts):
 * - before a request is sent, where its reference lives, so that Adyen's notification about it
 *   (merchantReference = our reference) finds the payment (notifications carry no order);
 * - the verified notifications received for a reference (the inbox), so that recovery can read
 *   an outcome that only a notification told (an authorization whose answer was lost, a
 *   modification Adyen settles later).
 */
export interface AdyenNotes {
  recordReference(reference: string, location: ReferenceLocation, signal: AbortSignal): Promise<void>;
  /** The verified notification items received for a reference, oldest first. */
  reported(reference: string, signal: AbortSignal): Promise<NotificationItem[]>;
}
