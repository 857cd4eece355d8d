import type { MiddlewareObj } from '@middy/core';
import { DomainError, InternalError } from '../core/errors.js';
import { redact } from '../core/ports/logger.js';
import { errorHeaders, statusOf } from './error-status.js';
import type { ApiContext, ApiEvent, ApiResponse } from './types.js';

/**
 * Maps any error to RFC 9457 problem details (SPEC §2). Known DomainErrors keep their code and
 * generic detail, and get their status from the code (error-status.ts); anything else — a
 * TypeError, an SDK error — becomes a bare 500. The cause chain is logged (redacted), never returned.
 */
export function problemDetails(): MiddlewareObj<ApiEvent, ApiResponse, Error, ApiContext> {
  return {
    onError: (request) => {
      const error = asDomainError(request.error);
      const api = request.context.api;
      const { status } = statusOf(error);
      api?.logger[status >= 500 ? 'error' : 'warn']('request failed', { code: error.code, status, error });
      request.response = problemResponse(error, api?.requestId);
    },
  };
}

/** A DomainError as it is, anything else as a 500 carrying it as its cause. */
export const asDomainError = (error: unknown): DomainError => (error instanceof DomainError ? error : new InternalError(undefined, { cause: error }));

export function problemResponse(error: DomainError, requestId: string | undefined): ApiResponse {
  const { status, title } = statusOf(error);
  const body: Record<string, unknown> = {
    type: 'about:blank',
    status,
    title,
    code: error.code,
    detail: error.detail,
    ...(requestId ? { requestId } : {}),
  };
  if (status === 400 && error.errors?.length) {
    body.errors = error.errors.map((issue) => ({ path: issue.path, message: redact(issue.message.slice(0, 200)) }));
  }
  return {
    statusCode: status,
    headers: { 'Content-Type': 'application/problem+json', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', ...errorHeaders(error) },
    body: JSON.stringify(body),
  };
}
