import { classifyFetchFailure, ProcessorMaybeSentError } from './failures.js';

/** One processor endpoint: where it is, how long a call may take, what every call carries. */
export interface JsonHttpEndpoint {
  processor: string;
  /** e.g. https://checkout-test.adyen.com/v71, or a fake's http://127.0.0.1:port. */
  baseUrl: string;
  /** Each call's own deadline; the caller's signal may end it sooner. */
  timeoutMs: number;
  /** Authentication headers (the credential: never logged, never in an error). */
  headers: Readonly<Record<string, string>>;
}

export interface JsonCall {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  /** Header name and value of the processor's idempotency key (every POST carries one). */
  idempotency?: { header: string; key: string };
}

export interface JsonAnswer {
  status: number;
  headers: Headers;
  body: unknown;
}

/**
 * A thin JSON client over `fetch`: the call's deadline joins the caller's signal, the body is
 * read under the same deadline, and every transport failure is classified (failures.ts). A
 * 2xx–4xx answer that is not JSON is "maybe sent"; every answer that is (and every 5xx, whose
 * body may be a proxy's page) goes back to the processor client, which knows what it means.
 */
export async function callJson(endpoint: JsonHttpEndpoint, call: JsonCall, signal: AbortSignal): Promise<JsonAnswer> {
  const deadline = AbortSignal.any([signal, AbortSignal.timeout(endpoint.timeoutMs)]);
  const headers: Record<string, string> = { accept: 'application/json', ...endpoint.headers };
  if (call.body !== undefined) headers['content-type'] = 'application/json';
  if (call.idempotency) headers[call.idempotency.header] = call.idempotency.key;
  let response: Response;
  try {
    response = await fetch(`${endpoint.baseUrl.replace(/\/+$/, '')}${call.path}`, {
      method: call.method,
      headers,
      ...(call.body !== undefined ? { body: JSON.stringify(call.body) } : {}),
      signal: deadline,
      redirect: 'error',
    });
  } catch (error) {
    throw classifyFetchFailure(endpoint.processor, error, deadline);
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    // Headers arrived, the body did not: the request was certainly read, maybe performed.
    throw new ProcessorMaybeSentError(endpoint.processor, deadline.aborted ? 'timeout' : 'connection-reset', response.status, { cause: error });
  }
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    // A 5xx page from a proxy is still a 5xx: the processor client decides what it means.
    if (response.status >= 500) return { status: response.status, headers: response.headers, body: undefined };
    // No cause: a JSON SyntaxError quotes the text it choked on, and that text is the processor's.
    throw new ProcessorMaybeSentError(endpoint.processor, 'unparseable-answer', response.status);
  }
  return { status: response.status, headers: response.headers, body };
}
