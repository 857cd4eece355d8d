import { randomUUID } from 'node:crypto';
import type { MiddlewareObj } from '@middy/core';
import { logger as rootLogger } from '../core/ports/logger.js';
import type { ApiContext, ApiEvent, ApiResponse } from './types.js';

const REQUEST_ID = /^[A-Za-z0-9=_-]{1,64}$/;

/**
 * First in, last out: assigns the request id, a child logger, and writes one access-log
 * line per request (method, route, status, duration — never headers or bodies).
 */
export function requestContext(options: { route: string }): MiddlewareObj<ApiEvent, ApiResponse, Error, ApiContext> {
  const finish = (request: { event: ApiEvent; context: ApiContext; response: ApiResponse | null }) => {
    const { api } = request.context;
    if (!request.response) return;
    request.response.headers = { ...request.response.headers, 'X-Request-Id': api.requestId };
    api.logger.info('request completed', {
      method: request.event.requestContext?.http?.method,
      route: options.route,
      status: request.response.statusCode,
      durationMs: Math.round(performance.now() - api.startedAt),
    });
  };
  return {
    before: (request) => {
      // Lambda's own request id: unique per invocation everywhere (serverless-offline gives
      // every HTTP API event the same requestContext.requestId) and it is the id on the
      // function's CloudWatch REPORT line, so a problem body leads straight to the logs.
      const fromLambda = request.context.awsRequestId;
      const requestId = fromLambda && REQUEST_ID.test(fromLambda) ? fromLambda : randomUUID();
      request.context.api = {
        requestId,
        logger: rootLogger.child({ requestId, route: options.route }),
        startedAt: performance.now(),
      };
    },
    after: finish,
    onError: finish,
  };
}
