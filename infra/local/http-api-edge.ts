/**
 * What API Gateway's HTTP API does at the edge, locally: `npm start` listens here (PORT) and
 * forwards to serverless-offline on a private port. serverless-offline's own CORS does not
 * behave like the deployed API: with `httpApi.cors` false (our default) it reflects any
 * `Origin`, `null` included, with `access-control-allow-credentials: true`, and answers every
 * OPTIONS carrying an Origin with 200; with a configuration it still reflects any origin on
 * plain requests. So CORS is decided here, from the same `corsAllowedOrigins` parsing and
 * configuration the deployment uses (infra/serverless/http-api.cjs), and serverless-offline's
 * headers never reach a browser:
 *
 * - not configured (CORS_ALLOWED_ORIGINS unset or empty, the default): no CORS header, ever,
 *   as deployed; an OPTIONS request reaches the routes like any other method (the fallback
 *   answers it, 405), with its Origin withheld from serverless-offline so that it does not
 *   rewrite the answer;
 * - configured: as API Gateway documents it — a preflight (OPTIONS with Origin and
 *   Access-Control-Request-Method) is answered here, 204, with the CORS headers only for a
 *   listed origin; other requests get `access-control-allow-origin` (and the exposed headers)
 *   only for a listed origin; CORS headers from the integration are ignored.
 *
 * Requests that never reach a handler get problem details too (edge-limits.ts), not
 * serverless-offline's own answers: a body over its 10 MB limit → 413 PAYLOAD_TOO_LARGE (what
 * the handlers answer past 64 KiB), headers over Node's 16 KiB or bytes that are not HTTP →
 * 400 INVALID_REQUEST (serverless-offline: an empty 400; Node: an empty 431).
 *
 * Nothing in lib/ or functions/ knows about this: the handlers see the same requests.
 */
import { Agent, createServer, request, type IncomingMessage, type OutgoingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo, Socket } from 'node:net';
import type { DomainError } from '../../lib/core/errors.js';
import { edgeProblem, payloadTooLarge, rawProblemResponse, unparsableRequest, UPSTREAM_MAX_BODY_BYTES } from './edge-limits.js';

export interface CorsConfiguration {
  allowedOrigins: string[];
  allowedHeaders: string[];
  allowedMethods: string[];
  exposedResponseHeaders: string[];
  maxAge: number;
  allowCredentials?: boolean;
}

const { parseAllowedOrigins, corsConfig } = createRequire(import.meta.url)('../serverless/http-api.cjs') as {
  parseAllowedOrigins: (value: unknown) => string[];
  corsConfig: (origins: string[]) => false | CorsConfiguration;
};

/** `CORS_ALLOWED_ORIGINS` → the deployment's CORS configuration (false = none); throws naming the bad item. */
export function localCorsConfiguration(value: string | undefined): false | CorsConfiguration {
  return corsConfig(parseAllowedOrigins(value ?? null));
}

export interface HttpApiEdgeOptions {
  port: number;
  host?: string;
  /** Where serverless-offline listens (127.0.0.1). */
  upstreamPort: number;
  cors: false | CorsConfiguration;
  /** Bodies above this are answered 413 here (default: serverless-offline's own limit); tests make it small. */
  maxBodyBytes?: number;
}

export interface HttpApiEdge {
  port: number;
  close(): Promise<void>;
}

/** Connection-level headers: each hop has its own. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer']);
const isCorsHeader = (name: string) => name.toLowerCase().startsWith('access-control-');

export async function startHttpApiEdge(options: HttpApiEdgeOptions): Promise<HttpApiEdge> {
  const { cors } = options;
  const maxBodyBytes = options.maxBodyBytes ?? UPSTREAM_MAX_BODY_BYTES;
  const agent = new Agent({ keepAlive: true });
  const listed = (origin: string | undefined): origin is string => cors !== false && origin !== undefined && cors.allowedOrigins.includes(origin);

  const server: Server = createServer((incoming, outgoing) => {
    const origin = incoming.headers.origin;
    const preflight = incoming.method === 'OPTIONS' && origin !== undefined && incoming.headers['access-control-request-method'] !== undefined;
    if (cors !== false && preflight) {
      incoming.resume();
      outgoing.writeHead(204, listed(origin) ? preflightHeaders(cors, origin) : {}).end();
      return;
    }
    const corsHeaders = listed(origin) && cors !== false ? responseCorsHeaders(cors, origin) : {};
    const declared = Number(incoming.headers['content-length'] ?? 0);
    if (declared > maxBodyBytes) return refuse(incoming, outgoing, payloadTooLarge(), corsHeaders);
    forward(incoming, outgoing, { upstreamPort: options.upstreamPort, agent, corsHeaders, maxBodyBytes });
  });
  // Without a listener Node answers a parse error with an empty 400 or 431; with it, the edge's problem.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code?.startsWith('HPE_') && socket.writable) socket.end(rawProblemResponse(unparsableRequest(error.code)));
    else socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise((resolve) => {
        agent.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function preflightHeaders(cors: CorsConfiguration, origin: string): OutgoingHttpHeaders {
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-methods': cors.allowedMethods.join(','),
    'access-control-allow-headers': cors.allowedHeaders.join(','),
    'access-control-max-age': String(cors.maxAge),
    ...(cors.allowCredentials ? { 'access-control-allow-credentials': 'true' } : {}),
  };
}

function responseCorsHeaders(cors: CorsConfiguration, origin: string): Record<string, string> {
  return {
    'access-control-allow-origin': origin,
    ...(cors.exposedResponseHeaders.length > 0 ? { 'access-control-expose-headers': cors.exposedResponseHeaders.join(',') } : {}),
    ...(cors.allowCredentials ? { 'access-control-allow-credentials': 'true' } : {}),
  };
}

/**
 * Answers `error` as problem details without forwarding (or while abandoning what was forwarded).
 * The rest of the body is read and dropped so the client can read the answer, then the
 * connection closes.
 */
function refuse(incoming: IncomingMessage, outgoing: ServerResponse, error: DomainError, corsHeaders: Record<string, string>): void {
  incoming.resume();
  if (outgoing.headersSent) return void outgoing.destroy();
  const { status, headers, body } = edgeProblem(error);
  outgoing.writeHead(status, { ...headers, ...corsHeaders, Connection: 'close' }).end(body);
}

interface Upstream {
  upstreamPort: number;
  agent: Agent;
  corsHeaders: Record<string, string>;
  maxBodyBytes: number;
}

function forward(incoming: IncomingMessage, outgoing: ServerResponse, { upstreamPort, agent, corsHeaders, maxBodyBytes }: Upstream): void {
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name)) continue;
    // serverless-offline rewrites any OPTIONS that carries an Origin (status 200, reflected origin).
    if (name === 'origin' && incoming.method === 'OPTIONS') continue;
    headers[name] = value;
  }
  const upstream = request({ host: '127.0.0.1', port: upstreamPort, method: incoming.method, path: incoming.url, headers, agent }, (answer) => {
    const raw: string[] = [];
    for (let index = 0; index < answer.rawHeaders.length; index += 2) {
      const name = answer.rawHeaders[index]!;
      if (isCorsHeader(name) || HOP_BY_HOP.has(name.toLowerCase())) continue;
      raw.push(name, answer.rawHeaders[index + 1]!);
    }
    for (const [name, value] of Object.entries(corsHeaders)) raw.push(name, value);
    outgoing.writeHead(answer.statusCode ?? 502, raw);
    answer.pipe(outgoing);
  });
  let tooLarge = false;
  upstream.on('error', () => {
    if (tooLarge) return; // abandoned on purpose: the 413 is answered below
    if (!outgoing.headersSent) outgoing.writeHead(502, { 'content-type': 'application/json' });
    outgoing.end(outgoing.headersSent ? undefined : JSON.stringify({ message: 'The local API (serverless-offline) is not answering.' }));
  });
  // A caller that goes away takes its request with it, as it would without the edge.
  outgoing.on('close', () => {
    if (!outgoing.writableFinished) upstream.destroy();
  });
  // A body without a Content-Length (chunked) is counted as it goes: past the limit it is not
  // forwarded any further, and the edge answers 413 instead of serverless-offline.
  let received = 0;
  incoming.on('data', (chunk: Buffer) => {
    if (tooLarge) return;
    received += chunk.length;
    if (received <= maxBodyBytes) {
      if (!upstream.write(chunk)) incoming.pause();
      return;
    }
    tooLarge = true;
    upstream.destroy();
    refuse(incoming, outgoing, payloadTooLarge(), corsHeaders);
  });
  upstream.on('drain', () => incoming.resume());
  incoming.on('end', () => {
    if (!tooLarge) upstream.end();
  });
}
