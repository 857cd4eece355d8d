import { createHash, randomUUID } from 'node:crypto';
import type { Principal } from '../auth/principal.js';
import type { OperationKind } from '../domain/payment.js';
import { idempotencyScope } from '../auth/caller-scope.js';

/**
 * The reference of a capture, refund or reversal — also the acquirer's idempotency key.
 * Random, unless the request carries an Idempotency-Key: then it is derived from the caller's
 * scope, the key and the payment, so a retry of a request whose answer was lost (even one the
 * idempotency layer did not store, like a 502) names the same operation, and the service asks
 * the acquirer about it instead of sending a second one.
 */
export function operationRef(kind: OperationKind, paymentRef: string, principal: Principal, idempotencyKey: string | undefined): string {
  if (idempotencyKey === undefined) return randomUUID();
  const digest = createHash('sha256')
    .update(JSON.stringify([idempotencyScope(principal), idempotencyKey, kind, paymentRef]))
    .digest('hex');
  // UUID layout (version 8: custom), so references look alike whichever way they were made.
  return `${digest.slice(0, 8)}-${digest.slice(8, 12)}-8${digest.slice(13, 16)}-${((parseInt(digest[16]!, 16) & 0x3) | 0x8).toString(16)}${digest.slice(17, 20)}-${digest.slice(20, 32)}`;
}
