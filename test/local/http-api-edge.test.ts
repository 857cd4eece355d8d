// The local edge in front of serverless-offline (infra/local/http-api-edge.ts) against a stand-in
// that misbehaves exactly as serverless-offline's CORS does. Self-contained: no global stack needed.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { localCorsConfiguration, startHttpApiEdge, type HttpApiEdge } from '../../infra/local/http-api-edge.js';

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
async function edge(corsAllowedOrigins?: string) {
  const started = await startHttpApiEdge({ port: 0, upstreamPort, cors: localCorsConfiguration(corsAllowedOrigins) });
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
