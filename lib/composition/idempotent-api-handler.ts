import type * as z from 'zod';
import { buildApiHandler, type RouteDefinition } from '../http/api-handler.js';
import type { IdempotencySupport } from '../http/idempotency.js';
import type { ApiRequest, ApiResult } from '../http/types.js';
import { idempotencyGuard } from './idempotency.js';

export interface IdempotentRouteDefinition<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> extends RouteDefinition<P, Q, B> {
  /**
   * The route honours an Idempotency-Key header (SPEC 4.13, lib/http/idempotency.ts) around its
   * use-case call. Every POST that creates or changes something opts in; its access group then
   * needs the table (iam.cjs IDEMPOTENCY_GROUPS). Written out in the handler because the OpenAPI
   * generator reads it there (infra/openapi/generate.ts).
   */
  idempotency: IdempotencySupport;
}

/**
 * apiHandler (./api-handler.ts) plus the Idempotency-Key guard. A module of its own so that
 * only the functions whose route opts in bundle and load the guard and Powertools' idempotency
 * and JMESPath packages: the others' cold start does not pay for them.
 */
export function idempotentApiHandler<P extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType>(
  definition: IdempotentRouteDefinition<P, Q, B>,
  run: (request: ApiRequest<z.output<P>, z.output<Q>, z.output<B>>) => Promise<ApiResult>,
) {
  return buildApiHandler(definition, run, idempotencyGuard());
}
