import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import type { ApiEvent } from '../../lib/http/types.js';

export interface InvokeOptions {
  method?: string;
  path?: string;
  pathParameters?: Record<string, string>;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  token?: string;
  /** An object is sent as JSON; a string is sent as is. */
  body?: unknown;
  contentType?: string | null;
  /**
   * The event's `body` exactly as given, not serialized (serverless-offline passes a JSON
   * payload that parses to `false` or `0` as that value). `contentType` still applies.
   */
  rawEventBody?: unknown;
  sourceIp?: string;
  /** The Lambda timeout the context reports (default 15 s, the payment functions'). */
  timeoutMs?: number;
}

export interface InvokeResult {
  status: number;
  headers: Record<string, string>;
  body: any;
  raw: string;
}

// Middy handlers also take a callback argument; we never pass one.
type LambdaHandler = (event: any, context: any, ...rest: any[]) => Promise<unknown>;

/** Calls a Lambda handler in-process with an HTTP API (payload 2.0) event, as API Gateway would. */
export async function invoke(handler: LambdaHandler, options: InvokeOptions = {}): Promise<InvokeResult> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    if (options.contentType !== null) headers['content-type'] = options.contentType ?? 'application/json';
  }
  if (options.rawEventBody !== undefined && options.contentType !== null) headers['content-type'] = options.contentType ?? 'application/json';
  const method = options.method ?? 'GET';
  const path = options.path ?? '/';
  const event = {
    version: '2.0',
    routeKey: `${method} ${path}`,
    rawPath: path,
    rawQueryString: new URLSearchParams(options.query ?? {}).toString(),
    headers,
    queryStringParameters: options.query,
    pathParameters: options.pathParameters,
    body: options.rawEventBody !== undefined ? options.rawEventBody : body,
    isBase64Encoded: false,
    requestContext: {
      accountId: '000000000000',
      apiId: 'test',
      domainName: 'pay.test.example',
      domainPrefix: 'pay',
      requestId: randomUUID(),
      routeKey: `${method} ${path}`,
      stage: '$default',
      time: new Date().toUTCString(),
      timeEpoch: Date.now(),
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: options.sourceIp ?? '203.0.113.7', userAgent: 'vitest' },
    },
  } as unknown as ApiEvent;
  const end = Date.now() + (options.timeoutMs ?? 15_000);
  const context = { awsRequestId: randomUUID(), functionName: 'test', getRemainingTimeInMillis: () => Math.max(0, end - Date.now()) } as unknown as Context;
  const response = (await handler(event, context)) as { statusCode: number; headers: Record<string, string>; body: string };
  let parsed: unknown;
  try {
    parsed = response.body ? JSON.parse(response.body) : undefined;
  } catch {
    parsed = response.body;
  }
  return { status: response.statusCode, headers: response.headers ?? {}, body: parsed, raw: response.body ?? '' };
}
