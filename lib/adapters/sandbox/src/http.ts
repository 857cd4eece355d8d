import middy from '@middy/core';
import { withInvocationDeadline } from '../../../http/invocation-deadline.js';
import type { Context } from 'aws-lambda';
import type * as z from 'zod';
import { DomainError, DependencyUnavailableError, NotFoundError } from '../../../core/errors.js';
import { statusOf } from '../../../http/error-status.js';
import { parseJsonBody, readJsonBody } from '../../../http/json-body.js';
import { problemResponse } from '../../../http/problem-details.js';
import { requestContext } from '../../../http/request-context.js';
import type { ApiContext, ApiEvent, ApiResponse } from '../../../http/types.js';
import { SrcError, type SrcErrorReason } from './errors.js';
import type { SandboxSrcNetwork, SrcClient } from './network.js';
import * as schemas from './schemas.js';

interface Operation {
  schema: z.ZodType;
  /** The reason of a schema violation outside `sessionId` (e.g. a bad card → INVALID_CARD). */
  invalid: SrcErrorReason;
  status: number;
  run: (network: SandboxSrcNetwork, body: never, client: SrcClient) => Promise<unknown>;
}

const op = <S extends z.ZodType>(
  schema: S,
  run: (network: SandboxSrcNetwork, body: z.output<S>, client: SrcClient) => Promise<unknown>,
  invalid: SrcErrorReason = 'INVALID_REQUEST',
  status = 200,
): Operation => ({
  schema,
  invalid,
  status,
  run: run as Operation['run'],
});

/** Path → operation: the POST routes of the route table (lib/http/routes.ts, sandboxSrc). */
export const SRC_OPERATIONS: Readonly<Record<string, Operation>> = {
  '/sandbox/src/init': op(schemas.initBody, (n, b, c) => n.init(b, c), 'INVALID_DPA'),
  '/sandbox/src/identity-lookup': op(schemas.identityLookupBody, (n, b) => n.identityLookup(b), 'INVALID_IDENTITY'),
  '/sandbox/src/otp/resend': op(schemas.sessionBody, (n, b) => n.resendOtp(b)),
  '/sandbox/src/otp/validate': op(schemas.validateOtpBody, (n, b) => n.validateOtp(b)),
  '/sandbox/src/cards': op(schemas.sessionBody, (n, b) => n.cards(b)),
  '/sandbox/src/cards/enroll': op(schemas.enrollCardBody, (n, b) => n.enrollCard(b), 'INVALID_CARD', 201),
  '/sandbox/src/checkout': op(schemas.checkoutBody, (n, b) => n.checkout(b)),
  '/sandbox/src/sign-out': op(schemas.sessionBody, (n, b) => n.signOut(b)),
  // Mastercard's confirmations API, played (the service's sandbox NetworkClient posts here).
  '/sandbox/src/confirmations': op(schemas.confirmationBody, (n, b, c) => n.confirm(b, c), 'INVALID_REQUEST', 204),
  '/sandbox/src/confirmations/search': op(schemas.confirmationSearchBody, (n, b) => n.confirmationsOf(b)),
};

/**
 * The sandbox SRC's one Lambda. No bearer token: this is "the network", not our API. Without
 * a network (no signing key configured — every non-sandbox deployment) every route is a 404
 * problem, as if it did not exist. Refusals use the network's own error format.
 */
export function createSandboxSrcHandler(network: SandboxSrcNetwork | undefined) {
  // One middy stack per path, so that access logs name the operation.
  const routes = new Map(Object.entries(SRC_OPERATIONS).map(([path, operation]) => [path, routeHandler(path, operation, network)]));
  const unknown = routeHandler('/sandbox/src/*', undefined, network);
  return withInvocationDeadline((event: ApiEvent, context: Context) => {
    const route = routes.get(event.rawPath ?? event.requestContext?.http?.path ?? '') ?? unknown;
    return route(event, context as ApiContext); // middy adds `api`
  });
}

function routeHandler(path: string, operation: Operation | undefined, network: SandboxSrcNetwork | undefined) {
  return middy<ApiEvent, ApiResponse, Error, ApiContext>()
    .use(requestContext({ route: `POST ${path}` }))
    .handler(async (event, context) => {
      const { api } = context;
      if (!network || !operation) return problemResponse(new NotFoundError(), api.requestId);
      try {
        const parsed = operation.schema.safeParse(readJson(event));
        if (!parsed.success) {
          const onSession = parsed.error.issues.some((issue) => issue.path[0] === 'sessionId' || issue.path.length === 0);
          throw new SrcError(400, onSession ? 'INVALID_REQUEST' : operation.invalid, 'The request is invalid.');
        }
        const idempotencyKey = event.headers?.['idempotency-key'];
        const client: SrcClient = { ip: event.requestContext?.http?.sourceIp ?? 'unknown', ...(idempotencyKey ? { idempotencyKey } : {}) };
        return reply(operation.status, await operation.run(network, parsed.data as never, client));
      } catch (error) {
        if (error instanceof SrcError) {
          api.logger.info('sandbox SRC refused', { reason: error.reason, status: error.status });
          const retryAfter = error.extra.retryAfterSeconds;
          return reply(error.status, error.toBody(), retryAfter === undefined ? {} : { 'Retry-After': String(retryAfter) });
        }
        const unavailable = error instanceof DependencyUnavailableError;
        api.logger.error('sandbox SRC failed', { error });
        const failure = new SrcError(unavailable ? 503 : 500, 'SERVICE_ERROR', 'The network is temporarily unavailable.');
        return reply(failure.status, failure.toBody(), unavailable ? { 'Retry-After': '1' } : {});
      }
    });
}

/** The shared body rules (64 KiB, JSON media type, valid JSON), answered in the network's own error format. */
function readJson(event: ApiEvent): unknown {
  try {
    return parseJsonBody(readJsonBody(event));
  } catch (error) {
    if (error instanceof DomainError) throw new SrcError(statusOf(error).status, error.code as SrcErrorReason, error.detail);
    throw error;
  }
}

function reply(statusCode: number, body: unknown, headers: Record<string, string> = {}): ApiResponse {
  if (statusCode === 204) return { statusCode, headers: { 'Cache-Control': 'no-store', ...headers }, body: '' };
  return {
    statusCode,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', ...headers },
    body: JSON.stringify(body),
  };
}
