import { LEASE_FIELDS } from '../domain/lease-rule.js';
import type { Payment } from '../domain/payment.js';
import type { FinalPatch } from '../ports/payment-store.js';

/**
 * What the lease holder's final write leaves, from the payment as its lease left it: the patch
 * applied, the lease's own fields removed. Only the holder changes a leased payment, so this is
 * the stored record without asking the store to send it back.
 */
export function settledFrom(
  leased: Payment,
  patch: FinalPatch,
  written: { version: number; updatedAt: string; settledBy: string; credential: string | undefined },
): Payment {
  const fields = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
  const after: Record<string, unknown> = { ...leased, ...fields, version: written.version, updatedAt: written.updatedAt, settledBy: written.settledBy };
  if (written.credential) after.settledCredential = written.credential;
  for (const field of LEASE_FIELDS) delete after[field];
  return after as unknown as Payment;
}
