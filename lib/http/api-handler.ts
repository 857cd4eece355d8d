import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import type * as z from 'zod';
import type { Authenticator, PaymentIdsInPath } from '../core/auth/authenticator.js';
import { authenticate } from './authenticate.js';
import type { IdempotencyGate } from './idempotency-request.js';
import { jsonBodyLimits } from './json-body.js';
import { problemDetails } from './problem-details.js';
import { requestContext } from './request-context.js';
import type { ApiRouteOptions } from './routes.js';
import type { ApiContext, ApiEvent, ApiRequest, ApiResponse, ApiResult, RouteSchemas } from './types.js';
import { validateInput } from './validate.js';
import { middyOptions, withInvocationDeadline } from './invocation-deadline.js';
import { flushMetrics } from './flush-metrics.js';

/** What the edge takes from an entry of the route table (./routes.ts). */
export interface EdgeRoute extends ApiRouteOptions {
  routes: readonly string[];
}

/** The rest of an endpoint: who checks tokens, and the schemas its input is validated with. */
export interface HandlerOptions<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> extends RouteSchemas<P, Q, B> {
  authenticator: Authenticator;
}

/** How a built handler was built: its table entry, and whether the Idempotency-Key guard is in the stack. */
export interface BuiltFrom {
  route: EdgeRoute;
  idempotent: boolean;
}
const builtFrom = new WeakMap<object, BuiltFrom>();

/** The table entry a handler was built from (test/unit/route-table.test.ts: each handler names its own). */
export function builtFromOf(handler: unknown): BuiltFrom | undefined {
  return typeof handler === 'function' ? builtFrom.get(handler) : undefined;
}

/**
 * The one way to build an endpoint, from its route-table entry (`apiHandler(routes.getOrder, …)`).
 * Order matters and is SPEC-driven: request id → error mapping → size/media type (413/415) →
 * bearer token (401) → realm/permission (403) → input validation (400) → Idempotency-Key
 * (routes that opt in) → use case. Handlers receive typed, validated input only. The whole
 * invocation runs under a deadline (invocation-deadline.ts): a dependency that does not answer
 * in time is a 503, never a 500 and never an answer after Lambda's own timeout. A route that
 * opts in to Idempotency-Key cannot be built here (`idempotency?: never`): it goes through
 * lib/composition/idempotent-api-handler.ts.
 */
export function apiHandler<P extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType>(
  route: EdgeRoute & { idempotency?: never },
  options: HandlerOptions<P, Q, B>,
  run: (request: ApiRequest<z.output<P>, z.output<Q>, z.output<B>>) => Promise<ApiResult>,
) {
  // The types refuse it; this refuses it at start-up for a route that got here by a cast.
  if (route.idempotency !== undefined) throw new Error(`${routeLabel(route)} takes an Idempotency-Key: build it with idempotentApiHandler`);
  return buildApiHandler(route, options, run, undefined);
}

/**
 * The label of a route in logs and metrics: its route key, or `PUT|POST /path` for a function
 * serving one path with several methods. A function serving several paths is not an API route.
 */
export function routeLabel(route: EdgeRoute): string {
  const parsed = route.routes.map((key) => key.split(' ') as [string, string]);
  const paths = new Set(parsed.map(([, path]) => path));
  if (paths.size !== 1) throw new Error(`An API function serves one path, not ${[...paths].join(', ') || 'none'}`);
  return `${parsed.map(([method]) => method).join('|')} ${parsed[0]![1]}`;
}

/**
 * The stack itself, with or without the Idempotency-Key guard. Routes that opt in go through
 * lib/composition/idempotent-api-handler.ts, the only module that reaches the guard (and
 * Powertools): a function whose route does not opt in never bundles nor loads it
 * (docs/benchmarks.md "Cold start").
 */
export function buildApiHandler<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType>(
  route: EdgeRoute,
  options: HandlerOptions<P, Q, B>,
  run: (request: ApiRequest<z.output<P>, z.output<Q>, z.output<B>>) => Promise<ApiResult>,
  guard: IdempotencyGate | undefined,
) {
  const label = routeLabel(route);
  const stack = middy<ApiEvent, ApiResponse, Error, ApiContext>(middyOptions)
    .use(flushMetrics({ route: label })) // outermost: flushes once, after the answer is decided
    .use(requestContext({ route: label }))
    .use(problemDetails())
    .use(jsonBodyLimits())
    .use(
      authenticate({
        authenticator: options.authenticator,
        requirement: route.access,
        sessionTokens: route.sessionTokens,
        readAhead: route.readAhead === 'payment' ? (event) => paymentIdsInPath(options.params, event) : undefined,
      }),
    )
    .use(validateInput(options))
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
  const handler = withInvocationDeadline((event: ApiEvent, context: Context) => stack(event, context as ApiContext));
  builtFrom.set(handler, { route, idempotent: guard !== undefined });
  return handler;
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
