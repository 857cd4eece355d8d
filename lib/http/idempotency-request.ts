import type { Context } from 'aws-lambda';
import type { Principal } from '../core/auth/principal.js';
import type { Logger } from '../core/ports/logger.js';
import { InvalidRequestError } from '../core/errors.js';
import { headerValue, parseJsonBody } from './json-body.js';
import type { ApiEvent, ApiResult } from './types.js';

export interface IdempotentCall {
  event: ApiEvent;
  context: Context;
  principal: Principal;
  /** The body text the limits middleware accepted (undefined when none). */
  rawBody: unknown;
  logger: Logger;
}

/**
 * What the edge runs an opted-in route's use case through (lib/http/api-handler.ts): the guard of
 * ./idempotency.ts, loaded on first use by lib/composition/idempotency.ts.
 */
export interface IdempotencyGate {
  run(call: IdempotentCall, work: () => Promise<ApiResult>): Promise<ApiResult>;
}

/** What an Idempotency-Key names: the header's value, whose key it is, and the request it stands for. */
const KEY_SYNTAX = /^[\x20-\x7E]{1,255}$/;

/** The header's value, or undefined when absent; 1–255 printable ASCII characters, else 400. */
export function idempotencyKeyOf(event: ApiEvent): string | undefined {
  const value = headerValue(event, 'idempotency-key');
  if (value === undefined) return undefined;
  if (!KEY_SYNTAX.test(value)) {
    throw new InvalidRequestError('The request is invalid.', {
      errors: [{ path: 'headers.Idempotency-Key', message: 'Expected 1–255 printable ASCII characters' }],
    });
  }
  return value;
}

export { idempotencyScope } from '../core/auth/caller-scope.js';

/**
 * The request a key stands for. The caller's narrowing is part of it: scope checks run in the
 * use case, which a replay skips, so a token narrowed to another merchant or outlet of the
 * same tenant must not be handed a stored response (it gets 422 instead).
 */
export function describeRequest(call: IdempotentCall): unknown {
  const { event, principal } = call;
  return {
    method: event.requestContext?.http?.method ?? null,
    path: event.rawPath ?? null,
    query: event.queryStringParameters ?? {},
    body: parseJsonBody(call.rawBody) ?? null,
    caller:
      principal.kind === 'tenant'
        ? { merchantRef: principal.merchantRef ?? null, outletIds: principal.outletIds ? [...principal.outletIds].sort() : null }
        : null,
  };
}
