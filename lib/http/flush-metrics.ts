import type { MiddlewareObj } from '@middy/core';
import { DomainError } from '../core/errors.js';
import type { ApiContext, ApiEvent, ApiResponse } from './types.js';
import { METRIC, metrics } from '../core/ports/metrics.js';

/**
 * Outermost middleware of every API function (lib/http/api-handler.ts): records the route's
 * latency and any 5xx by code, then flushes what the invocation recorded — once, after the
 * response is decided (Powertools' own `logMetrics` does the same; this one also knows the
 * route and our error codes).
 */
export function flushMetrics(options: { route: string }): MiddlewareObj<ApiEvent, ApiResponse, Error, ApiContext> {
  const finish = (request: { context: ApiContext; response: ApiResponse | null; error: Error | null }) => {
    const startedAt = request.context.api?.startedAt; // set by requestContext, as for the access log
    if (startedAt !== undefined) metrics.timing(METRIC.latency, performance.now() - startedAt, { route: options.route });
    const status = request.response?.statusCode ?? 500;
    if (status >= 500) {
      const code = request.error instanceof DomainError ? request.error.code : 'INTERNAL_ERROR';
      metrics.count(METRIC.serverErrors, { code: status === 500 ? 'INTERNAL_ERROR' : code });
    }
    metrics.flush();
  };
  return {
    after: (request) => finish({ context: request.context, response: request.response, error: null }),
    onError: (request) => finish({ context: request.context, response: request.response ?? null, error: request.error ?? null }),
  };
}
