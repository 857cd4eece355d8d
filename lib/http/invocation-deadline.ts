import type { Context } from 'aws-lambda';
import { runWithDeadline } from '../core/deadline.js';
import { DependencyUnavailableError } from '../core/errors.js';

/**
 * How much of the Lambda's remaining time a request may spend on dependencies: the rest is
 * kept to log and answer (SPEC §6: a 503 well before the function's own deadline).
 */
export const DEADLINE_DEFAULTS = { reserveMs: 1_000, timeoutEarlyInMillis: 500 } as const;

/**
 * middy's own options for every API stack: should the handler still run `timeoutEarlyInMillis`
 * before Lambda's timeout (something that ignored the deadline signal), middy answers with
 * this error, which the problem-details middleware turns into a 503 with Retry-After.
 */
export const middyOptions = {
  timeoutEarlyInMillis: DEADLINE_DEFAULTS.timeoutEarlyInMillis,
  timeoutEarlyResponse: () => {
    throw new DependencyUnavailableError(undefined, { cause: new Error('the function reached its deadline') });
  },
};

type Handler<E, R> = (event: E, context: Context) => Promise<R>;

/**
 * Runs one invocation under a deadline `reserveMs` before Lambda's: every DynamoDB, KMS and
 * JWKS call made inside it (lib/core/deadline.ts) is aborted then, so work the client has
 * been answered for does not go on changing state behind its back.
 */
export function withInvocationDeadline<E, R>(handler: Handler<E, R>, reserveMs: number = DEADLINE_DEFAULTS.reserveMs): Handler<E, R> {
  return (event, context) => {
    const remaining = typeof context?.getRemainingTimeInMillis === 'function' ? context.getRemainingTimeInMillis() : 30_000;
    const budget = Math.max(0, remaining - reserveMs);
    const at = Date.now() + budget;
    return runWithDeadline({ signal: AbortSignal.timeout(budget), at }, () => handler(event, context));
  };
}
