import { redactCardNumbers } from '../../../core/domain/card-numbers.js';
import { ThreeDsServerCallError, type ErroSummary } from '../../../core/ports/three-ds-server-error.js';

/**
 * One call to 3dsecure.io's API (server-information.rst, "Making requests"): every request is
 * a POST of JSON (`Content-Type: application/json; charset=utf-8`) authenticated by the
 * `APIKey` header; answers are JSON, an EMV Erro message "in all but the rarest cases" even
 * when the status is not 200 (preauth.rst, auth.rst, postauth.rst). The failure is classified
 * for at-most-once (three-ds-errors.ts).
 */
export interface ApiCall {
  baseUrl: string;
  apiKey: string | (() => Promise<string>);
  endpoint: '/preauth' | '/auth' | '/postauth';
  body: Record<string, unknown>;
  signal: AbortSignal;
  fetch?: typeof fetch;
}

/** The answer's JSON object when it is no Erro; an Erro (any status) throws kind `erro`. */
export async function postJson(call: ApiCall): Promise<Record<string, unknown>> {
  const { endpoint } = call;
  if (call.signal.aborted)
    throw new ThreeDsServerCallError('not-sent', endpoint, { reason: 'the deadline had passed before the call', cause: call.signal.reason });
  const apiKey = await apiKeyOf(call);
  let response: Response;
  try {
    response = await (call.fetch ?? fetch)(new URL(endpoint, call.baseUrl), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json; charset=utf-8', Accept: 'application/json', APIKey: apiKey },
      body: JSON.stringify(call.body),
      signal: call.signal,
      redirect: 'error',
    });
  } catch (error) {
    throw new ThreeDsServerCallError(neverConnected(error) ? 'not-sent' : 'maybe-sent', endpoint, { cause: error, reason: transportReason(error) });
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw new ThreeDsServerCallError('maybe-sent', endpoint, { status: response.status, cause: error, reason: 'the answer was cut off' });
  }
  const json = parseObject(text);
  if (json && json.messageType === 'Erro') throw new ThreeDsServerCallError('erro', endpoint, { status: response.status, erro: erroSummary(json) });
  if (response.status === 200 && json) return json;
  if (response.status >= 500 || response.status === 200) {
    throw new ThreeDsServerCallError('maybe-sent', endpoint, {
      status: response.status,
      reason: response.status === 200 ? 'an answer that is no JSON object' : undefined,
    });
  }
  // 401 "Invalid API Key" (server-information.rst), 404, 413, 429…: refused before any processing.
  throw new ThreeDsServerCallError('not-sent', endpoint, { status: response.status });
}

/** The key itself, or read through its provider: a provider that fails means nothing was sent (the secret's ARN or text never reach the error). */
async function apiKeyOf(call: ApiCall): Promise<string> {
  if (typeof call.apiKey === 'string') return call.apiKey;
  try {
    return await call.apiKey();
  } catch (error) {
    throw new ThreeDsServerCallError('not-sent', call.endpoint, { reason: 'the API key could not be read', cause: error });
  }
}

/**
 * Errors that prove the request never left: no connection was made (refused, unresolvable,
 * connect timeout). A reset, a socket closed mid-way or an abort after connecting may have
 * delivered it. undici reports these as `TypeError('fetch failed')` with the socket error as cause.
 */
const NEVER_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT', 'ERR_INVALID_URL']);

function neverConnected(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && NEVER_CONNECTED.has(code)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

function transportReason(error: unknown): string {
  if (error instanceof DOMException && (error.name === 'AbortError' || error.name === 'TimeoutError')) return 'no answer before the deadline';
  const cause = (error as { cause?: { code?: unknown } }).cause;
  return typeof cause?.code === 'string' ? `transport ${cause.code}` : 'transport failure';
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const field = (value: unknown, max: number) => (typeof value === 'string' ? redactCardNumbers(value).slice(0, max) : '');

/** The Erro's codes and texts, redacted of card numbers and cut short: they reach logs. */
export function erroSummary(message: Record<string, unknown>): ErroSummary {
  return {
    errorCode: field(message.errorCode, 8),
    errorComponent: field(message.errorComponent, 4),
    errorDescription: field(message.errorDescription, 120),
    errorDetail: field(message.errorDetail, 240),
  };
}
