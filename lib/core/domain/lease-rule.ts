import type { Payment } from './payment.js';

export type LeaseOrigin = 'STARTED' | 'AWAIT_3DS';

/** One clause of a condition a lease transition requires of the stored payment. */
export interface LeaseClause {
  field: 'state' | 'leaseFrom' | 'leaseUntil' | 'leaseCredential';
  op: '=' | '<';
  value: string | number;
}

/**
 * The conditions of SPEC §3's one-attempt-at-a-time rule, written once. The core tests a
 * payment it read against them (`satisfies`); a store enforces the very same clauses in its
 * conditional write (the DynamoDB adapter renders them as a ConditionExpression, the in-memory
 * store evaluates `satisfies`), so what the use case expects and what the write allows cannot
 * drift apart.
 *
 * - `fresh`: a payment in `from` (STARTED, or AWAIT_3DS for a 3DS completion).
 * - `takeover`: an expired lease taken from `from` for the same credential — the same
 *   checkout response, card or 3DS transaction coming back after its answer was lost.
 */
export const LEASE_RULE = {
  fresh: (from: LeaseOrigin): readonly LeaseClause[] => [{ field: 'state', op: '=', value: from }],
  takeover: (from: LeaseOrigin, credential: string, now: number): readonly LeaseClause[] => [
    { field: 'state', op: '=', value: 'PROCESSING' },
    { field: 'leaseFrom', op: '=', value: from },
    { field: 'leaseUntil', op: '<', value: now },
    { field: 'leaseCredential', op: '=', value: credential },
  ],
} as const;

/** Whether a payment meets every clause (an absent field meets none). */
export function satisfies(payment: Pick<Payment, LeaseClause['field']>, clauses: readonly LeaseClause[]): boolean {
  return clauses.every(({ field, op, value }) => {
    const actual = payment[field];
    if (actual === undefined) return false;
    return op === '=' ? actual === value : actual < value;
  });
}

/** What only a lease holds; the final write and a release remove them. */
export const LEASE_FIELDS = ['leaseId', 'leaseUntil', 'leaseFrom', 'leaseCredential', 'leaseMasked', 'parkedUntil'] as const;
