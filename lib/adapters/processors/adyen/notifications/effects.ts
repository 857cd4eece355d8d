import type { NotificationItem } from './parse.js';

/**
 * What one verified notification item means for a payment (docs/design/processors.md
 * "Notifications"). Adyen event codes: AUTHORISATION settles an authorization (by our
 * reference, merchantReference = paymentRef); CAPTURE / CANCELLATION / REFUND / CANCEL_OR_REFUND
 * settle a pending modification (merchantReference = our operation reference, pspReference =
 * the modification's, originalReference = the payment's); CAPTURE_FAILED and REFUND_FAILED undo
 * a modification Adyen had accepted; TECHNICAL_CANCEL voids an authorization Adyen cancelled by
 * itself. Anything else is recorded and ignored.
 */
export type NotificationEffect =
  | { kind: 'authorization'; reference: string; processorReference: string; approved: boolean }
  | {
      kind: 'modification';
      operation: 'CAPTURE' | 'REVERSAL' | 'REFUND' | 'CANCEL_OR_REFUND';
      reference: string;
      processorReference: string;
      paymentProcessorReference: string | undefined;
      succeeded: boolean;
    }
  | {
      kind: 'modification-failed-later';
      operation: 'CAPTURE' | 'REFUND';
      reference: string;
      processorReference: string;
      paymentProcessorReference: string | undefined;
    }
  | { kind: 'authorization-cancelled'; reference: string; processorReference: string; paymentProcessorReference: string | undefined }
  | { kind: 'ignored'; eventCode: string };

const MODIFICATIONS = { CAPTURE: 'CAPTURE', CANCELLATION: 'REVERSAL', REFUND: 'REFUND', CANCEL_OR_REFUND: 'CANCEL_OR_REFUND' } as const;

export function effectOf(item: NotificationItem): NotificationEffect {
  const succeeded = item.success === 'true';
  const common = { reference: item.merchantReference, processorReference: item.pspReference };
  if (item.eventCode === 'AUTHORISATION') return { kind: 'authorization', ...common, approved: succeeded };
  if (item.eventCode in MODIFICATIONS) {
    const operation = MODIFICATIONS[item.eventCode as keyof typeof MODIFICATIONS];
    return { kind: 'modification', operation, ...common, paymentProcessorReference: item.originalReference, succeeded };
  }
  // "success": true on these means the failure (or the cancel) happened.
  if ((item.eventCode === 'CAPTURE_FAILED' || item.eventCode === 'REFUND_FAILED') && succeeded) {
    return {
      kind: 'modification-failed-later',
      operation: item.eventCode === 'CAPTURE_FAILED' ? 'CAPTURE' : 'REFUND',
      ...common,
      paymentProcessorReference: item.originalReference,
    };
  }
  if (item.eventCode === 'TECHNICAL_CANCEL' && succeeded)
    return { kind: 'authorization-cancelled', ...common, paymentProcessorReference: item.originalReference };
  return { kind: 'ignored', eventCode: item.eventCode };
}

/**
 * The key under which an item is applied at most once: Adyen may deliver a notification more
 * than once (at-least-once delivery), always with the same pspReference, eventCode and success.
 */
export function notificationKey(item: NotificationItem): string {
  return `${item.eventCode}:${item.pspReference}:${item.success}`;
}
