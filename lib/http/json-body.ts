import type { MiddlewareObj } from '@middy/core';
import { InvalidRequestError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../errors.js';
import type { ApiContext, ApiEvent, ApiResponse } from './types.js';

export const MAX_BODY_BYTES = 64 * 1024;
const JSON_MEDIA_TYPE = /^application\/([a-z0-9.+-]+\+)?json\s*(;|$)/i;

/** Size and media type first (cheap, before authentication); parsing happens after it. */
export function jsonBodyLimits(options: { maxBytes?: number } = {}): MiddlewareObj<ApiEvent, ApiResponse, Error, ApiContext> {
  const maxBytes = options.maxBytes ?? MAX_BODY_BYTES;
  return {
    before: (request) => {
      request.context.api.rawBody = readJsonBody(request.event, maxBytes);
    },
  };
}

/**
 * The body as text, once its size (413) and media type (415) are acceptable; undefined when
 * there is none. Shared by every JSON endpoint, the sandbox network's included.
 */
export function readJsonBody(event: ApiEvent, maxBytes = MAX_BODY_BYTES): string | undefined {
  if (event.body === undefined || event.body === null || event.body === '') return undefined;
  const raw = event.isBase64Encoded ? Buffer.from(event.body, 'base64') : Buffer.from(event.body, 'utf8');
  if (raw.byteLength > maxBytes) throw new PayloadTooLargeError(`The request body exceeds ${maxBytes} bytes.`);
  const contentType = headerValue(event, 'content-type');
  if (!contentType || !JSON_MEDIA_TYPE.test(contentType)) throw new UnsupportedMediaTypeError();
  return raw.toString('utf8');
}

/** Parses the body the limits middleware accepted; malformed JSON is a 400. */
export function parseJsonBody(raw: unknown): unknown {
  if (raw === undefined) return undefined;
  try {
    return JSON.parse(raw as string);
  } catch {
    throw new InvalidRequestError('The request body is not valid JSON.');
  }
}

export function headerValue(event: ApiEvent, name: string): string | undefined {
  const headers = event.headers ?? {};
  const direct = headers[name];
  if (direct !== undefined) return direct;
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
  return key === undefined ? undefined : headers[key];
}
