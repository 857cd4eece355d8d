import { createHash } from 'node:crypto';
import type { AuthorizationOutcome, AuthorizationRequest, Authorizer } from './authorizer.js';

/**
 * The sandbox acquirer of SPEC §5. Deterministic, so it is idempotent by construction:
 * the same paymentRef always gets the same answer and approval code.
 *   amount ending 51 → INSUFFICIENT_FUNDS; ending 05 → DO_NOT_HONOUR;
 *   token/PAN ending 0002 → CARD_EXPIRED; amount ending 99 → never answers (timeout).
 */
export class SandboxAuthorizer implements Authorizer {
  async authorize(request: AuthorizationRequest, signal: AbortSignal): Promise<AuthorizationOutcome> {
    const cents = String(request.amount.value).padStart(2, '0').slice(-2);
    if (cents === '99') return hang(signal);
    if (cents === '51') return { approved: false, declineCode: 'INSUFFICIENT_FUNDS', reason: 'Insufficient funds' };
    if (cents === '05') return { approved: false, declineCode: 'DO_NOT_HONOUR', reason: 'Do not honour' };
    if (request.credential.number.endsWith('0002')) return { approved: false, declineCode: 'CARD_EXPIRED', reason: 'Card expired' };
    const code = createHash('sha256').update(request.idempotencyKey).digest('hex').slice(0, 6).toUpperCase();
    return { approved: true, code, resultCode: '00' };
  }
}

function hang(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(new Error('aborted'));
    signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
  });
}
