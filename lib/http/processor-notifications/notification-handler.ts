import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { DependencyUnavailableError, InvalidRequestError, UnauthenticatedError } from '../../core/errors.js';
import { acceptProcessorDelivery, type ProcessorReportDeps } from '../../core/payments/processor-reports.js';
import type { ProcessorReportSource } from '../../core/ports/processor-inbox.js';
import { flushMetrics } from '../flush-metrics.js';
import { middyOptions, withInvocationDeadline } from '../invocation-deadline.js';
import { parseJsonBody, readJsonBody } from '../json-body.js';
import { requestContext } from '../request-context.js';
import type { ApiContext, ApiEvent, ApiResponse } from '../types.js';

/** What Adyen expects in the body of a 2xx: anything else and it delivers again. */
export const ACCEPTED = '[accepted]';

/**
 * POST /processors/{processor}/notifications (SPEC 4.16), public — no bearer token: each item
 * is verified with the HMAC key of the merchant it names (the source), and a delivery with one
 * item that fails is refused whole with 401 and changes nothing. Stored and applied once each
 * (lib/core/payments/processor-reports.ts), then answered `[accepted]`. A dependency that does
 * not answer is a 503 (the processor delivers again); the answer never says more than that.
 */
export function createNotificationHandler(deps: ProcessorReportDeps & { source: ProcessorReportSource }, options: { route: string }) {
  const stack = middy<ApiEvent, ApiResponse, Error, ApiContext>(middyOptions)
    .use(flushMetrics({ route: options.route }))
    .use(requestContext({ route: options.route }))
    .handler(async (event, context) => {
      const { logger } = context.api;
      try {
        const body = parseJsonBody(readJsonBody(event));
        if (body === undefined) throw new InvalidRequestError('A JSON request body is required.');
        const received = await acceptProcessorDelivery(deps, body, logger);
        logger.info('processor notification accepted', { items: received });
        return text(200, ACCEPTED);
      } catch (error) {
        if (error instanceof UnauthenticatedError) {
          logger.warn('processor notification refused: not verified', { error });
          return text(401, 'unauthorized');
        }
        if (error instanceof InvalidRequestError || isClientError(error)) {
          logger.info('processor notification refused: not a notification', { error });
          return text(400, 'invalid notification');
        }
        logger.error('processor notification not stored', { error });
        return text(error instanceof DependencyUnavailableError ? 503 : 500, 'retry later');
      }
    });
  return withInvocationDeadline((event: ApiEvent, context: Context) => stack(event, context as ApiContext));
}

/** 413 / 415 from the body limits: a client's mistake, answered like any malformed delivery. */
const isClientError = (error: unknown) => ['PayloadTooLargeError', 'UnsupportedMediaTypeError'].includes((error as Error | undefined)?.name ?? '');

function text(statusCode: number, body: string): ApiResponse {
  return { statusCode, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }, body };
}
