import type { Principal } from './principal.js';

/**
 * Whose Idempotency-Keys these are (SPEC 4.13: the caller's tenant, or the platform). A
 * hosted-session token gets its order's own scope: a shopper's browser never meets the
 * merchant's keys. Also names the operations derived from a key (lib/payments/lifecycle).
 */
export function idempotencyScope(principal: Principal): string {
  switch (principal.kind) {
    case 'platform':
      return 'platform';
    case 'tenant':
      return `tenant:${principal.tenantRef}`;
    case 'session':
      return `session:${principal.orderRef}`;
  }
}
