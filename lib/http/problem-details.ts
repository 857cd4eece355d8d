import type { MiddlewareObj } from '@middy/core';
import { AppError, InternalError } from '../core/errors.js';
import { redact } from '../core/ports/logger.js';
import type { ApiContext, ApiEvent, ApiResponse } from './types.js';

/**
 * Maps any error to RFC 9457 problem details (SPEC §2). Known AppErrors keep their status,
 * code and generic detail; anything else — a TypeError, an SDK error — becomes a bare 500.
 * The cause chain is logged (redacted), never returned.
 */
export function problemDetails(): MiddlewareObj<ApiEvent, ApiResponse, Error, ApiContext> {
  return {
    onError: (request) => {
      const error = request.error;
      const appError = error instanceof AppError ? error : new InternalError(undefined, { cause: error });
      const api = request.context.api;
      const log = appError.status >= 500 ? 'error' : 'warn';
      api?.logger[log]('request failed', { code: appError.code, status: appError.status, error: appError });
      request.response = problemResponse(appError, api?.requestId);
    },
  };
}

export function problemResponse(error: AppError, requestId: string | undefined): ApiResponse {
  const body: Record<string, unknown> = {
    type: 'about:blank',
    status: error.status,
    title: error.title,
    code: error.code,
    detail: error.detail,
    ...(requestId ? { requestId } : {}),
  };
  if (error.status === 400 && error.errors?.length) {
    body.errors = error.errors.map((issue) => ({ path: issue.path, message: redact(issue.message.slice(0, 200)) }));
  }
  return {
    statusCode: error.status,
    headers: { 'Content-Type': 'application/problem+json', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', ...error.headers },
    body: JSON.stringify(body),
  };
}
