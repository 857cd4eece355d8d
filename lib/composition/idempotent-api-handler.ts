import type * as z from 'zod';
import { buildApiHandler, type EdgeRoute, type HandlerOptions, routeLabel } from '../http/api-handler.js';
import type { ApiRequest, ApiResult } from '../http/types.js';
import { idempotencyGuard } from './idempotency.js';

/**
 * apiHandler (lib/http/api-handler.ts) plus the Idempotency-Key guard, for the route-table
 * entries that say `idempotency: 'supported'` (lib/http/routes.ts; their roles get the table,
 * infra/serverless/iam.cjs). A module of its own so that only the functions whose route opts in
 * bundle and load the guard and Powertools' idempotency and JMESPath packages: the others' cold
 * start does not pay for them.
 */
export function idempotentApiHandler<P extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType>(
  route: EdgeRoute & { idempotency: 'supported' },
  options: HandlerOptions<P, Q, B>,
  run: (request: ApiRequest<z.output<P>, z.output<Q>, z.output<B>>) => Promise<ApiResult>,
) {
  if (route.idempotency !== 'supported') throw new Error(`${routeLabel(route)} does not opt in to Idempotency-Key: build it with apiHandler`);
  return buildApiHandler(route, options, run, idempotencyGuard());
}
