/**
 * What the local edge (http-api-edge.ts) answers itself when a request never reaches a handler:
 * a body over serverless-offline's payload limit, headers over Node's parser limit, bytes that
 * are not HTTP. serverless-offline (hapi) would answer those with its own JSON (413) or an
 * empty 400; the edge answers them as the service answers everything else (SPEC §2): problem
 * details from lib/http, with the codes, titles and headers the handlers use.
 */
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { InvalidRequestError } from '../../lib/core/errors.js';
import type { DomainError } from '../../lib/core/errors.js';
import { PayloadTooLargeError } from '../../lib/http/errors.js';
import { MAX_BODY_BYTES } from '../../lib/http/json-body.js';
import { problemResponse } from '../../lib/http/problem-details.js';

/**
 * serverless-offline's own limit for a request body (hapi `payload.maxBytes`,
 * serverless-offline/src/events/http/HttpServer.js: 10 MB, "Cf AWS API GW payload limits").
 * Below it the handler sees the body and answers 413 PAYLOAD_TOO_LARGE past 64 KiB, as deployed;
 * above it serverless-offline would answer with its own body, so the edge answers instead.
 */
export const UPSTREAM_MAX_BODY_BYTES = 10 * 1024 * 1024;

/** A body the handlers would refuse anyway: the same 413 they answer, word for word. */
export const payloadTooLarge = (): DomainError => new PayloadTooLargeError(`The request body exceeds ${MAX_BODY_BYTES} bytes.`);

/**
 * A request Node's HTTP parser refused (the error's `code`): headers over its limit (16 KiB,
 * `http.maxHeaderSize`), or not HTTP at all. SPEC §2 has no 431: a 400 INVALID_REQUEST that
 * says which.
 */
export function unparsableRequest(code: string | undefined): DomainError {
  return new InvalidRequestError(code === 'HPE_HEADER_OVERFLOW' ? 'The request headers are too large.' : 'The request is not valid HTTP.');
}

/** The problem response for `error`, with a request id of the edge's own (also in X-Request-Id, as the handlers send it). */
export function edgeProblem(error: DomainError): { status: number; headers: Record<string, string>; body: string } {
  const requestId = randomUUID();
  const response = problemResponse(error, requestId);
  return { status: response.statusCode, headers: { ...response.headers, 'X-Request-Id': requestId }, body: String(response.body) };
}

/**
 * The same answer as raw HTTP/1.1 bytes, for a socket whose request could not be parsed (there
 * is no ServerResponse to write to). The connection closes after it.
 */
export function rawProblemResponse(error: DomainError): string {
  const { status, headers, body } = edgeProblem(error);
  const lines = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  lines.push(`Content-Length: ${Buffer.byteLength(body)}`, 'Connection: close', '', body);
  return lines.join('\r\n');
}
