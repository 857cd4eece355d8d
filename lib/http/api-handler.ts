import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import type * as z from 'zod';
import type { Authenticator, PaymentIdsInPath } from '../core/auth/authenticator.js';
import { authenticate } from './authenticate.js';
import type { IdempotencyGuard } from './idempotency.js';
import { jsonBodyLimits } from './json-body.js';
import { problemDetails } from './problem-details.js';
import { requestContext } from './request-context.js';
import type { AccessRequirement, ApiContext, ApiEvent, ApiRequest, ApiResponse, ApiResult, RouteSchemas, SessionTokenPolicy } from './types.js';
import { validateInput } from './validate.js';
import { middyOptions, withInvocationDeadline } from './invocation-deadline.js';
import { flushMetrics } from './flush-metrics.js';

export interface RouteDefinition<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> extends RouteSchemas<P, Q, B> {
  /** For logs: e.g. "POST /transactions/outlets/{outletId}/orders". */
  route: string;
  access: AccessRequirement;
  /** Hosted-session tokens are refused (403) unless the route says `'allowed'` (SPEC §1). */
  sessionTokens?: SessionTokenPolicy;
  authenticator: Authenticator;
  /**
   * `'payment'`: the route's path names a payment (`orderRef`, `paymentRef`) and its use case
   * reads it first. A hosted-session token's lookup then reads the order and the payment in
   * the same BatchGetItem, handed to the use case as `readAhead` (one round trip fewer).
   */
  readAhead?: 'payment';
}

/**
 * The one way to build an endpoint. Order matters and is SPEC-driven: request id → error
 * mapping → size/media type (413/415) → bearer token (401) → realm/permission (403) →
 * input validation (400) → Idempotency-Key (routes that opt in) → use case. Handlers receive
 * typed, validated input only. The whole invocation runs under a deadline (invocation-deadline.ts): a dependency that does not
 * answer in time is a 503, never a 500 and never an answer after Lambda's own timeout.
 */
export function apiHandler<P extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType>(
  definition: RouteDefinition<P, Q, B>,
  run: (request: ApiRequest<z.output<P>, z.output<Q>, z.output<B>>) => Promise<ApiResult>,
) {
  return buildApiHandler(definition, run, undefined);
}

/**
 * The stack itself, with or without the Idempotency-Key guard. Routes that opt in go through
 * ./idempotent-api-handler.ts, the only module that reaches the guard (and Powertools): a
 * function whose route does not opt in never bundles nor loads it (docs/benchmarks.md "Cold start").
 */
export function buildApiHandler<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType>(
  definition: RouteDefinition<P, Q, B>,
  run: (request: ApiRequest<z.output<P>, z.output<Q>, z.output<B>>) => Promise<ApiResult>,
  guard: IdempotencyGuard | undefined,
) {
  const stack = middy<ApiEvent, ApiResponse, Error, ApiContext>(middyOptions)
    .use(flushMetrics({ route: definition.route })) // outermost: flushes once, after the answer is decided
    .use(requestContext({ route: definition.route }))
    .use(problemDetails())
    .use(jsonBodyLimits())
    .use(
      authenticate({
        authenticator: definition.authenticator,
        requirement: definition.access,
        sessionTokens: definition.sessionTokens,
        readAhead: definition.readAhead === 'payment' ? (event) => paymentIdsInPath(definition.params, event) : undefined,
      }),
    )
    .use(validateInput(definition))
    .handler(async (event, context) => {
      const { api } = context;
      const call = () =>
        run({
          params: api.params as z.output<P>,
          query: api.query as z.output<Q>,
          body: api.body as z.output<B>,
          principal: api.principal!,
          readAhead: api.readAhead,
          requestId: api.requestId,
          logger: api.logger,
          event,
        });
      if (!guard) return jsonResponse(await call());
      const idempotent = { event, context, principal: api.principal!, rawBody: api.rawBody, logger: api.logger };
      return jsonResponse(await guard.run(idempotent, call));
    });
  return withInvocationDeadline((event: ApiEvent, context: Context) => stack(event, context as ApiContext));
}

/**
 * The order and payment a request's path names, if the path is valid for the route (checked
 * by the route's own params schema, which runs again, and answers 400, after authentication).
 */
function paymentIdsInPath(params: z.ZodType | undefined, event: ApiEvent): PaymentIdsInPath | undefined {
  const parsed = params?.safeParse(event.pathParameters ?? {});
  if (!parsed?.success) return undefined;
  const { orderRef, paymentRef } = parsed.data as { orderRef?: unknown; paymentRef?: unknown };
  return typeof orderRef === 'string' && typeof paymentRef === 'string' ? { orderRef, paymentRef } : undefined;
}

export function jsonResponse(result: ApiResult): ApiResponse {
  return {
    statusCode: result.status ?? 200,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', ...result.headers },
    body: JSON.stringify(result.body),
  };
}
