import { decline } from '../../decline.js';
import type { ProcessorReport, ReportEffect } from '../../../../core/ports/processor-inbox.js';
import { effectOf, notificationKey } from './effects.js';
import type { NotificationItem } from './parse.js';
import { reportedOutcome } from './reported-outcome.js';

/**
 * A verified notification item in the core's words (lib/core/ports/processor-inbox.ts):
 * AUTHORISATION settles an authorization; CAPTURE / CANCELLATION / REFUND settle the pending
 * operation named by merchantReference; CAPTURE_FAILED / REFUND_FAILED undo one Adyen had
 * accepted; TECHNICAL_CANCEL voids the authorization (a reversal under `technical-cancel-<psp>`);
 * anything else is kept and not acted on. What is kept of it (`record`) is the signed fields,
 * the event date and the issuer's refusal code — never Adyen's text, never card data.
 */
export function reportOf(item: NotificationItem): ProcessorReport {
  return { key: notificationKey(item), reference: item.merchantReference, effect: effectIn(item), record: recordOf(item) };
}

function effectIn(item: NotificationItem): ReportEffect {
  const effect = effectOf(item);
  switch (effect.kind) {
    case 'authorization':
      return { kind: 'authorization', outcome: reportedOutcome([item], 'AUTHORIZE')! };
    case 'modification':
      // CANCEL_OR_REFUND answers /reversals, which the service never sends.
      if (effect.operation === 'CANCEL_OR_REFUND') return { kind: 'none' };
      return { kind: 'operation', outcome: reportedOutcome([item], effect.operation)! };
    case 'modification-failed-later':
      return { kind: 'operation-failed-later', decline: decline('PROCESSOR_REFUSED', `adyen:${item.eventCode}`) };
    case 'authorization-cancelled':
      return {
        kind: 'authorization-cancelled',
        operationRef: `technical-cancel-${item.pspReference}`,
        decline: decline('PROCESSOR_REFUSED', 'adyen:TECHNICAL_CANCEL'),
      };
    case 'ignored':
      return { kind: 'none' };
  }
}

const KEPT_ADDITIONAL_DATA = ['refusalReasonRaw', 'refusalReasonCode'] as const;

/** The item as the inbox keeps it, and as recovery reads it back (a NotificationItem). */
export function recordOf(item: NotificationItem): NotificationItem {
  const additionalData = Object.fromEntries(
    KEPT_ADDITIONAL_DATA.filter((name) => typeof item.additionalData?.[name] === 'string').map((name) => [name, item.additionalData![name]]),
  );
  return {
    pspReference: item.pspReference,
    ...(item.originalReference ? { originalReference: item.originalReference } : {}),
    merchantAccountCode: item.merchantAccountCode,
    merchantReference: item.merchantReference,
    amount: item.amount,
    eventCode: item.eventCode,
    eventDate: item.eventDate,
    success: item.success,
    ...(Object.keys(additionalData).length > 0 ? { additionalData } : {}),
  };
}
