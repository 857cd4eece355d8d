import type { DueItem, DueRef } from '../../core/ports/outbox-store.js';

/** Sort-key prefixes of the delivery items (in the orders table, beside the payments). */
export const EVENT_SK_PREFIX = 'EVENT#';
export const CONFIRMATION_SK_PREFIX = 'CONFIRMATION#';
export const RECOVERY_SK_PREFIX = 'RECOVERY#';

/**
 * What a due item of the orders table is, from its keys: the storage layout is this adapter's
 * to know, so the worker is told the kind instead of parsing keys.
 */
export function dueItemOf(pk: string, sk: string): DueItem {
  const ref = { pk, sk };
  if (sk.startsWith(EVENT_SK_PREFIX)) return { ref, kind: 'webhook' };
  if (sk.startsWith(CONFIRMATION_SK_PREFIX)) return { ref, kind: 'confirmation' };
  if (sk.startsWith(RECOVERY_SK_PREFIX)) return { ref, kind: 'recovery' };
  return { ref, kind: 'outbox' };
}

/** Where a merchant's network confirmation lives (beside its events). */
export const confirmationKey = (merchantRef: string, id: string): DueRef => ({ pk: `CONFIRMATIONS#${merchantRef}`, sk: `${CONFIRMATION_SK_PREFIX}${id}` });

/** Where a merchant's processor recovery lives (a partition of its own, beside its events). */
export const recoveryKey = (merchantRef: string, id: string): DueRef => ({ pk: `RECOVERIES#${merchantRef}`, sk: `${RECOVERY_SK_PREFIX}${id}` });
