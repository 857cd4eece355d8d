import { createHash } from 'node:crypto';
import { decline, type DeclineReason } from '../../../lib/core/domain/decline.js';
import {
  OperationNotPerformedError,
  type AuthorizationOutcome,
  type AuthorizationRequest,
  type Authorizer,
  type AuthorizerSource,
  type ModificationRequest,
  type RecoveryAnswer,
  type RecoveryQuery,
} from '../../../lib/core/ports/authorizer.js';

/**
 * How the acquirer answers one call, as the service experiences it:
 * - `approve` / `decline`: performed, answered;
 * - `hang`: never arrives, never answers (until the caller's signal aborts);
 * - `hang-performed`: performed, but the answer never comes (a timeout after it landed);
 * - `not-sent`: certainly not performed (OperationNotPerformedError: refused before sending);
 * - `lost-answer`: performed, then the connection drops (an ambiguous error);
 * - `lost-request`: the connection drops before it arrives (the same ambiguous error, nothing performed).
 * A function answers from the request, or waits for a test to release it.
 */
export type Answer =
  | 'approve'
  | 'decline'
  | 'hang'
  | 'hang-performed'
  | 'not-sent'
  | 'lost-answer'
  | 'lost-request'
  | ((call: AcquirerCall, perform: (approve?: boolean) => AuthorizationOutcome, signal: AbortSignal) => Promise<AuthorizationOutcome>);

/** How a `recover` (a lookup by reference) answers: what the acquirer did (`record`), or a fault of the lookup itself. */
export type LookupAnswer = 'record' | 'hang' | 'fail';

export interface AcquirerCall {
  /** `lookup`: a `recover` — the outcome asked for by reference, nothing sent. */
  method: 'authorize' | 'modify' | 'lookup';
  idempotencyKey: string;
  kind?: 'AUTHORIZE' | ModificationRequest['kind'];
  amount?: number;
  paymentRef?: string;
  /** An authorization's ECI (what the 3DS decision and a challenge lead to). */
  eci?: string;
}

export interface Performed {
  kind: 'AUTHORIZE' | ModificationRequest['kind'];
  amount: number;
  paymentRef: string;
  outcome: AuthorizationOutcome;
}

/**
 * A scriptable acquirer. Like a real one it performs an operation once per idempotency key
 * (a repeat answers the first outcome) and answers `recover` by reference (its reference of an
 * operation is the idempotency key it was sent under) from what it performed. Unlike a real
 * one it records every call, so a test can say "sent exactly once" (SPEC §3), and it refuses
 * what no correct service sends: a key reused for another operation or amount, an amount that
 * is not a positive integer of minor units, a capture, refund or reversal of an authorization
 * it never approved. Answers are taken from `script` in order, then `otherwise`.
 */
export class ScriptedAcquirer implements Authorizer {
  readonly calls: AcquirerCall[] = [];
  readonly performed = new Map<string, Performed>();
  readonly script: Answer[] = [];
  readonly lookupScript: LookupAnswer[] = [];
  otherwise: Answer = 'approve';
  declineCode: DeclineReason = 'INSUFFICIENT_FUNDS';

  /** Queues the answers of the next calls to authorize or modify. */
  next(...answers: Answer[]): this {
    this.script.push(...answers);
    return this;
  }

  /** Queues the answers of the next lookups. */
  nextLookup(...answers: LookupAnswer[]): this {
    this.lookupScript.push(...answers);
    return this;
  }

  async authorize(request: AuthorizationRequest, signal: AbortSignal): Promise<AuthorizationOutcome> {
    assertAmount(request.amount);
    if (!request.credential.number || !request.credential.cryptogram) throw new Error('acquirer fake: an authorization needs a number and a cryptogram');
    const call: AcquirerCall = {
      method: 'authorize',
      idempotencyKey: request.idempotencyKey,
      kind: 'AUTHORIZE',
      amount: request.amount.value,
      ...(request.eci ? { eci: request.eci } : {}),
    };
    this.calls.push(call);
    return this.answer(call, { kind: 'AUTHORIZE', amount: request.amount.value, paymentRef: request.idempotencyKey }, signal);
  }

  async modify(request: ModificationRequest, signal: AbortSignal): Promise<AuthorizationOutcome> {
    assertAmount(request.amount);
    const call: AcquirerCall = {
      method: 'modify',
      idempotencyKey: request.idempotencyKey,
      kind: request.kind,
      amount: request.amount.value,
      paymentRef: request.paymentRef,
    };
    this.calls.push(call);
    return this.answer(call, { kind: request.kind, amount: request.amount.value, paymentRef: request.paymentRef }, signal);
  }

  async recover(query: RecoveryQuery, signal: AbortSignal): Promise<RecoveryAnswer> {
    const idempotencyKey = query.operation === 'AUTHORIZE' ? query.reference : query.request.idempotencyKey;
    this.calls.push({ method: 'lookup', idempotencyKey });
    const answer = this.lookupScript.shift() ?? 'record';
    if (answer === 'hang') return hang(signal);
    if (answer === 'fail') throw new Error('acquirer fake: lookup failed');
    const performed = this.performed.get(idempotencyKey);
    return performed ? { kind: 'known', outcome: performed.outcome } : { kind: 'absent' };
  }

  /** How many times the operation under this key was sent (authorize or modify calls). */
  sends(idempotencyKey: string): number {
    return this.calls.filter((call) => call.method !== 'lookup' && call.idempotencyKey === idempotencyKey).length;
  }

  lookups(idempotencyKey: string): number {
    return this.calls.filter((call) => call.method === 'lookup' && call.idempotencyKey === idempotencyKey).length;
  }

  /** Records an operation as performed without a call (what an earlier, unrecorded call did). */
  record(idempotencyKey: string, performed: Performed): void {
    this.performed.set(idempotencyKey, performed);
  }

  private answer(call: AcquirerCall, operation: Omit<Performed, 'outcome'>, signal: AbortSignal): Promise<AuthorizationOutcome> {
    const perform = (approve = true) => this.perform(call.idempotencyKey, operation, approve);
    const answer = this.script.shift() ?? this.otherwise;
    switch (answer) {
      case 'approve':
        return Promise.resolve(perform());
      case 'decline':
        return Promise.resolve(perform(false));
      case 'hang':
        return hang(signal);
      case 'hang-performed':
        perform();
        return hang(signal);
      case 'not-sent':
        return Promise.reject(new OperationNotPerformedError('acquirer fake: refused before sending'));
      case 'lost-answer':
        perform();
        return Promise.reject(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
      case 'lost-request':
        return Promise.reject(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
      default:
        return answer(call, perform, signal);
    }
  }

  /** Performs once per key; a repeat answers the first outcome, and must be the same operation. */
  private perform(key: string, operation: Omit<Performed, 'outcome'>, approve = true): AuthorizationOutcome {
    const first = this.performed.get(key);
    if (first) {
      if (first.kind !== operation.kind || first.amount !== operation.amount || first.paymentRef !== operation.paymentRef) {
        throw new Error(`acquirer fake: idempotency key ${key} reused for another operation`);
      }
      return first.outcome;
    }
    if (operation.kind !== 'AUTHORIZE' && this.performed.get(operation.paymentRef)?.outcome.kind !== 'approved') {
      const outcome: AuthorizationOutcome = { kind: 'declined', decline: decline('NO_AUTHORIZATION', 'fake:NO_AUTHORIZATION') };
      this.performed.set(key, { ...operation, outcome });
      return outcome;
    }
    const outcome: AuthorizationOutcome = approve
      ? { kind: 'approved', processorReference: key, authorizationCode: authorizationCode(key), resultCode: '00' }
      : { kind: 'declined', processorReference: key, decline: decline(this.declineCode, `fake:${this.declineCode}`) };
    this.performed.set(key, { ...operation, outcome });
    return outcome;
  }
}

/** The approval code the fake gives an operation: derived from its key, so a repeat answers the same. */
export const authorizationCode = (key: string) => createHash('sha256').update(key).digest('hex').slice(0, 6).toUpperCase();

/** The authorizer of each merchant environment, as lib/composition/acquirers.ts chooses it. */
export function byEnvironment(acquirers: { production: Authorizer; sandbox: Authorizer }): AuthorizerSource {
  return { for: async (merchant) => (merchant?.environment === 'sandbox' ? acquirers.sandbox : acquirers.production) };
}

function assertAmount(amount: { currencyCode: string; value: number }): void {
  if (!/^[A-Z]{3}$/.test(amount.currencyCode) || !Number.isInteger(amount.value) || amount.value <= 0) {
    throw new Error(`acquirer fake: not an amount in minor units: ${JSON.stringify(amount)}`);
  }
}

/** Never answers; rejects when the caller gives up (its signal aborts). */
export function hang(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    const abort = () => reject(new Error('aborted by the caller'));
    if (signal.aborted) abort();
    else signal.addEventListener('abort', abort, { once: true });
  });
}
