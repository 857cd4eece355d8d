import type { MiddlewareObj } from '@middy/core';
import { InvalidRequestError } from '../core/errors.js';
import { PayloadTooLargeError, UnsupportedMediaTypeError } from './errors.js';
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
  const text = bodyText(event.body as unknown);
  if (text === undefined || text === '') return undefined;
  const raw = event.isBase64Encoded ? Buffer.from(text, 'base64') : Buffer.from(text, 'utf8');
  if (raw.byteLength > maxBytes) throw new PayloadTooLargeError(`The request body exceeds ${maxBytes} bytes.`);
  const contentType = headerValue(event, 'content-type');
  if (!contentType || !JSON_MEDIA_TYPE.test(contentType)) throw new UnsupportedMediaTypeError();
  return raw.toString('utf8');
}

/**
 * API Gateway always hands over the body as a string. serverless-offline does not for a JSON
 * payload that parses to a falsy value: `false` or `0` arrive as that boolean or number. Such
 * a value is turned back into its JSON text, so it is refused like any other non-object body
 * (400) instead of failing in Buffer.from (500).
 */
function bodyText(body: unknown): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  if (typeof body === 'number' || typeof body === 'boolean') return JSON.stringify(body);
  throw new InvalidRequestError('The request body is not valid JSON.');
}

/**
 * Parses the body the limits middleware accepted. Malformed JSON is a 400, and so is any JSON
 * that is not an object (`false`, `0`, `null`, `[]`, `"x"`, `1e309`): every endpoint of the
 * service and of the sandbox network takes an object, or no body at all.
 */
export function parseJsonBody(raw: unknown): Record<string, unknown> | undefined {
  if (raw === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw as string);
  } catch {
    throw new InvalidRequestError('The request body is not valid JSON.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new InvalidRequestError('The request body must be a JSON object.');
  }
  return parsed as Record<string, unknown>;
}

export function headerValue(event: ApiEvent, name: string): string | undefined {
  const headers = event.headers ?? {};
  const direct = headers[name];
  if (direct !== undefined) return direct;
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
  return key === undefined ? undefined : headers[key];
}
