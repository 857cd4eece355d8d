// The local edge in front of serverless-offline (infra/local/http-api-edge.ts) against a stand-in
// that misbehaves exactly as serverless-offline's CORS does. Self-contained: no global stack needed.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { UPSTREAM_MAX_BODY_BYTES } from '../../infra/local/edge-limits.js';
import { localCorsConfiguration, startHttpApiEdge, type HttpApiEdge } from '../../infra/local/http-api-edge.js';
import { MAX_BODY_BYTES } from '../../lib/http/json-body.js';

/** serverless-offline's onPreResponse: any Origin reflected with credentials; OPTIONS with an Origin → 200. */
let upstream: Server;
let upstreamPort: number;
const seen: { method: string; headers: IncomingHttpHeaders; body: string }[] = [];
beforeAll(async () => {
  upstream = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      seen.push({ method: request.method!, headers: request.headers, body: Buffer.concat(chunks).toString() });
      const origin = request.headers.origin;
      const reflected = origin ? { 'access-control-allow-origin': origin, 'access-control-allow-credentials': 'true' } : {};
      if (request.method === 'OPTIONS') {
        response
          .writeHead(origin ? 200 : 405, { 'content-type': 'application/problem+json', allow: 'GET, POST', ...reflected })
          .end('{"code":"METHOD_NOT_ALLOWED"}');
        return;
      }
      // hapi's own 413 past serverless-offline's payload limit: not problem details.
      if (Buffer.concat(chunks).length > UPSTREAM_MAX_BODY_BYTES) {
        response.writeHead(413, { 'content-type': 'application/json; charset=utf-8' }).end('{"statusCode":413,"error":"Request Entity Too Large"}');
        return;
      }
      response.writeHead(request.url === '/created' ? 201 : 200, { 'content-type': 'application/json', 'x-request-id': 'r-1', ...reflected });
      response.end(JSON.stringify({ echoed: Buffer.concat(chunks).toString() }));
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamPort = (upstream.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => upstream.close(() => resolve())));

const edges: HttpApiEdge[] = [];
afterEach(async () => {
  await Promise.all(edges.splice(0).map((edge) => edge.close()));
  seen.length = 0;
});
async function edge(corsAllowedOrigins?: string, maxBodyBytes?: number) {
  const started = await startHttpApiEdge({
    port: 0,
    upstreamPort,
    cors: localCorsConfiguration(corsAllowedOrigins),
    ...(maxBodyBytes ? { maxBodyBytes } : {}),
  });
  edges.push(started);
  return `http://127.0.0.1:${started.port}`;
}
function corsEntriesOf(response: Response): [string, string][] {
  const entries: [string, string][] = [];
  response.headers.forEach((value, name) => {
    if (name.startsWith('access-control-')) entries.push([name, value]);
  });
  return entries;
}
const corsHeadersOf = (response: Response) => corsEntriesOf(response).map(([name]) => name);
const preflight = (base: string, origin: string) =>
  fetch(`${base}/transactions/outlets/demo-outlet/orders`, {
    method: 'OPTIONS',
    headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization,content-type' },
  });
const get = (base: string, origin: string) => fetch(`${base}/config/configs/vctp/encryption-keys`, { headers: { Origin: origin } });

describe('corsAllowedOrigins not configured (the default, as deployed): no CORS header at all', () => {
  it.each(['https://evil.example', 'null', 'http://localhost:3000'])('Origin: %s — preflight and GET carry none', async (origin) => {
    const base = await edge();
    const options = await preflight(base, origin);
    expect(corsHeadersOf(options)).toEqual([]);
    // The preflight is an ordinary OPTIONS request for the routes (the fallback's 405), not serverless-offline's 200.
    expect(options.status).toBe(405);
    expect(seen.at(-1)!.headers.origin).toBeUndefined();
    const plain = await get(base, origin);
    expect(plain.status).toBe(200);
    expect(corsHeadersOf(plain)).toEqual([]);
    expect(seen.at(-1)!.headers.origin).toBe(origin); // the handler still sees the request as sent
  });

  it('passes everything else through: status, body, headers, the caller’s Host', async () => {
    const base = await edge();
    const response = await fetch(`${base}/created`, {
      method: 'POST',
      body: '{"a":1}',
      headers: { 'content-type': 'application/json', authorization: 'Bearer t' },
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ echoed: '{"a":1}' });
    expect(response.headers.get('x-request-id')).toBe('r-1');
    expect(seen.at(-1)!.headers).toMatchObject({ authorization: 'Bearer t', host: new URL(base).host });
  });

  it('answers 502 while serverless-offline is not listening', async () => {
    const dead = await startHttpApiEdge({ port: 0, upstreamPort: 1, cors: false });
    edges.push(dead);
    const response = await fetch(`http://127.0.0.1:${dead.port}/x`);
    expect(response.status).toBe(502);
    expect(corsHeadersOf(response)).toEqual([]);
  });
});

describe('corsAllowedOrigins configured: API Gateway’s behaviour with the deployment’s configuration', () => {
  const shop = 'https://shop.example.com';
  const configured = `${shop},http://localhost:5173`;

  it('a preflight from a listed origin is answered at the edge with the configured CORS headers, no credentials', async () => {
    const base = await edge(configured);
    const response = await preflight(base, shop);
    expect(response.status).toBe(204);
    const cors = localCorsConfiguration(configured);
    if (cors === false) throw new Error('configured');
    expect(Object.fromEntries(corsEntriesOf(response))).toEqual({
      'access-control-allow-origin': shop,
      'access-control-allow-methods': cors.allowedMethods.join(','),
      'access-control-allow-headers': cors.allowedHeaders.join(','),
      'access-control-max-age': '600',
    });
    expect(seen).toHaveLength(0);
  });

  it.each(['https://evil.example', 'null', 'https://shop.example.com.evil.example', 'http://shop.example.com'])(
    'Origin: %s (not listed) — preflight and GET carry none',
    async (origin) => {
      const base = await edge(configured);
      const options = await preflight(base, origin);
      expect(options.status).toBe(204);
      expect(corsHeadersOf(options)).toEqual([]);
      const plain = await get(base, origin);
      expect(corsHeadersOf(plain)).toEqual([]);
    },
  );

  it('a request from a listed origin gets its origin and the exposed headers, never the integration’s credentials header', async () => {
    const base = await edge(configured);
    const response = await get(base, shop);
    expect(response.headers.get('access-control-allow-origin')).toBe(shop);
    expect(response.headers.get('access-control-expose-headers')).toContain('Retry-After');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('refuses what the deployment refuses: *, null, paths, plain http', () => {
    for (const value of ['*', 'null', 'https://shop.example.com/', 'http://shop.example.com']) {
      expect(() => localCorsConfiguration(value), value).toThrow(/corsAllowedOrigins item 1/);
    }
    expect(localCorsConfiguration(undefined)).toBe(false);
    expect(localCorsConfiguration(' ')).toBe(false);
  });
});

/** SPEC §2: every error is problem details — the edge's own answers too, with a request id like the handlers'. */
async function expectProblem(response: Response, status: number, code: string, detail: string): Promise<void> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  expect(response.headers.get('cache-control')).toBe('no-store');
  const body = (await response.json()) as Record<string, unknown>;
  expect(body).toEqual({
    type: 'about:blank',
    status,
    title: status === 413 ? 'Content Too Large' : 'Bad Request',
    code,
    detail,
    requestId: expect.any(String),
  });
  expect(response.headers.get('x-request-id')).toBe(body.requestId);
}

describe('what never reaches a handler is answered as problem details, not serverless-offline’s own answers', () => {
  it('a body over serverless-offline’s limit (Content-Length): 413 PAYLOAD_TOO_LARGE as the handlers word it, nothing forwarded', async () => {
    const base = await edge('https://shop.example.com');
    const response = await fetch(`${base}/transactions/outlets/demo-outlet/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://shop.example.com' },
      body: Buffer.alloc(UPSTREAM_MAX_BODY_BYTES + 1, 0x20),
    });
    await expectProblem(response, 413, 'PAYLOAD_TOO_LARGE', `The request body exceeds ${MAX_BODY_BYTES} bytes.`);
    expect(response.headers.get('access-control-allow-origin')).toBe('https://shop.example.com'); // a browser can read it
    expect(seen).toHaveLength(0);
  });

  it('a chunked body (no Content-Length) is counted as it streams: past the limit, 413 from the edge, never the upstream’s', async () => {
    const base = await edge(undefined, 1024);
    const chunks = async function* () {
      for (let index = 0; index < 8; index++) yield new Uint8Array(512).fill(0x20);
    };
    const response = await fetch(`${base}/transactions/outlets/demo-outlet/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: ReadableStream.from(chunks()),
      duplex: 'half',
    } as RequestInit);
    await expectProblem(response, 413, 'PAYLOAD_TOO_LARGE', `The request body exceeds ${MAX_BODY_BYTES} bytes.`);
    // At the limit it still goes through, streamed.
    const small = await fetch(`${base}/created`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: ReadableStream.from(
        (async function* () {
          yield new TextEncoder().encode('{"a":1}');
        })(),
      ),
      duplex: 'half',
    } as RequestInit);
    expect(small.status).toBe(201);
    expect(await small.json()).toEqual({ echoed: '{"a":1}' });
  });

  it('headers over Node’s 16 KiB (a ~20 KB header): 400 INVALID_REQUEST, not an empty 400 or 431; a 10 KB header still goes through', async () => {
    const base = await edge();
    const big = await fetch(`${base}/config/configs/vctp/encryption-keys`, { headers: { 'x-padding': 'a'.repeat(20_000) } });
    await expectProblem(big, 400, 'INVALID_REQUEST', 'The request headers are too large.');
    expect(seen).toHaveLength(0);
    const fits = await fetch(`${base}/config/configs/vctp/encryption-keys`, { headers: { 'x-padding': 'a'.repeat(10_000) } });
    expect(fits.status).toBe(200);
  });

  it('bytes that are not HTTP: 400 INVALID_REQUEST as problem details, then the connection closes', async () => {
    const base = new URL(await edge());
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(base.port), base.hostname);
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
      socket.write('HELLO / HTTP/1.1\r\n\r\n');
    });
    const [head, body] = answer.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(head).toMatch(/\r\ncontent-type: application\/problem\+json\r\n/i);
    expect(head).toMatch(/\r\nConnection: close(\r\n|$)/);
    expect(JSON.parse(body!)).toMatchObject({ status: 400, code: 'INVALID_REQUEST', detail: 'The request is not valid HTTP.' });
    expect(seen).toHaveLength(0);
  });
});
