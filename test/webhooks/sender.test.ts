import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { deliveryErrorOf } from '../../lib/adapters/webhooks/delivery-error.js';
import { HttpWebhookSender, MAX_RESPONSE_BYTES, type WebhookRequest } from '../../lib/adapters/webhooks/sender.js';
import { assertSafeWebhookUrl, type LookupAll } from '../../lib/adapters/webhooks/url-guard.js';

/**
 * SPEC §4.15 delivery over real sockets: a local receiver (http, 127.0.0.1) whose every path
 * has its own behaviour; it records each request and counts every TCP connection, so a
 * refused delivery can be shown to have opened none.
 */
type Route = (request: IncomingMessage, response: ServerResponse) => void;
const routes = new Map<string, Route>();
let received: { url: string; method: string; headers: IncomingHttpHeaders; body: string }[] = [];
let connections = 0;
let server: Server;
let port: number;
const open = new Set<ServerResponse>();

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ url: request.url ?? '', method: request.method ?? '', headers: request.headers, body: Buffer.concat(chunks).toString() });
      open.add(response);
      response.on('close', () => open.delete(response));
      (routes.get(request.url ?? '') ?? ((_, res) => res.writeHead(404).end()))(request, response);
    });
  });
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  routes.set('/ok', (_, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('thanks'));
  routes.set('/no-content', (_, res) => res.writeHead(204).end());
  routes.set('/fails', (_, res) => res.writeHead(500).end('{"error":"internal: db at 10.0.0.5 down"}'));
  routes.set('/redirects', (_, res) => res.writeHead(302, { location: `http://127.0.0.1:${port}/redirect-target` }).end());
  routes.set('/redirect-target', (_, res) => res.writeHead(200).end());
  routes.set('/silent', () => {}); // reads the request, never answers
  routes.set('/stalls-mid-body', (_, res) => res.writeHead(200, { 'content-length': '100' }).write('partial'));
  routes.set('/resets', (req) => req.socket.destroy());
  routes.set('/floods', (_, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    const chunk = Buffer.alloc(16 * 1024, 120);
    const more = () => {
      if (res.destroyed || res.writableEnded) return;
      res.write(chunk, () => setImmediate(more));
    };
    more();
  });
});

afterAll(async () => {
  for (const response of open) response.destroy();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  received = [];
  connections = 0;
});

const url = (path: string) => `http://127.0.0.1:${port}${path}`;
const webhook = (path: string, overrides: Partial<WebhookRequest> = {}): WebhookRequest => ({
  url: url(path),
  body: '{"id":"evt_1","type":"payment.captured"}',
  headers: { 'webhook-id': 'msg_1', 'webhook-timestamp': '1772600767', 'webhook-signature': 'v1,abc=' },
  allowLoopback: true,
  ...overrides,
});
const resolvesTo =
  (...addresses: string[]): LookupAll =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
const sender = new HttpWebhookSender({ timeoutMs: 2_000 });

describe('HttpWebhookSender', () => {
  it('POSTs the body with its headers, content-type and user-agent; 200 is ok', async () => {
    const result = await sender.send(webhook('/ok'));
    expect(result).toEqual({ ok: true, status: 200, durationMs: expect.any(Number) });
    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request).toMatchObject({ method: 'POST', url: '/ok', body: '{"id":"evt_1","type":"payment.captured"}' });
    expect(request?.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'click-to-pay-webhooks/1',
      'content-length': '40',
      'webhook-id': 'msg_1',
      'webhook-timestamp': '1772600767',
      'webhook-signature': 'v1,abc=',
    });
  });

  it('204 is ok', async () => {
    expect(await sender.send(webhook('/no-content'))).toMatchObject({ ok: true, status: 204 });
  });

  it('500 is not ok, with its status and nothing of the answer', async () => {
    const result = await sender.send(webhook('/fails'));
    expect(result).toEqual({ ok: false, status: 500, durationMs: expect.any(Number) });
  });

  it('302 is not ok, and the redirect target is never requested', async () => {
    expect(await sender.send(webhook('/redirects'))).toMatchObject({ ok: false, status: 302 });
    expect(received.map((request) => request.url)).toEqual(['/redirects']);
  });

  it('a receiver that never answers is a timeout, after timeoutMs', async () => {
    const result = await new HttpWebhookSender({ timeoutMs: 200 }).send(webhook('/silent'));
    expect(result).toMatchObject({ ok: false, error: 'timeout' });
    expect(result.status).toBeUndefined();
    expect(result.durationMs).toBeGreaterThanOrEqual(190);
    expect(result.durationMs).toBeLessThan(1_500);
  });

  it('a status line followed by a stalled body still counts as the receiver’s answer', async () => {
    const result = await new HttpWebhookSender({ timeoutMs: 200 }).send(webhook('/stalls-mid-body'));
    expect(result).toMatchObject({ ok: true, status: 200 });
  });

  it('reads at most 64 KiB of an answer, then hangs up', async () => {
    const closed = new Promise<void>((resolve) => routes.set('/flood-watch', (req, res) => (res.on('close', resolve), routes.get('/floods')?.(req, res))));
    const result = await new HttpWebhookSender({ timeoutMs: 5_000 }).send(webhook('/flood-watch'));
    expect(result).toMatchObject({ ok: true, status: 200 });
    expect(result.durationMs).toBeLessThan(2_000); // not the timeout: the sender stopped reading
    await closed; // and the receiver saw the connection go
    expect(MAX_RESPONSE_BYTES).toBe(65_536);
  });

  it('connection refused is "connection"; a reset is "connection"', async () => {
    const spare = createServer();
    await new Promise<void>((resolve) => spare.listen(0, '127.0.0.1', resolve));
    const closedPort = (spare.address() as AddressInfo).port;
    await new Promise<void>((resolve) => spare.close(() => resolve()));
    expect(await sender.send(webhook('/', { url: `http://127.0.0.1:${closedPort}/` }))).toMatchObject({ ok: false, error: 'connection' });
    expect(await sender.send(webhook('/resets'))).toMatchObject({ ok: false, error: 'connection' });
  });

  it('https to something that does not speak TLS is "tls"', async () => {
    expect(await sender.send(webhook('/ok', { url: `https://127.0.0.1:${port}/ok` }))).toMatchObject({ ok: false, error: 'tls' });
  });

  it('a name resolving to 10.0.0.1 is "blocked-address", and no connection is attempted', async () => {
    const lookup = vi.fn(resolvesTo('10.0.0.1'));
    const result = await new HttpWebhookSender({ lookup }).send(webhook('/ok', { url: 'https://hooks.example.com/c2p', allowLoopback: false }));
    expect(result).toMatchObject({ ok: false, error: 'blocked-address' });
    expect(lookup).toHaveBeenCalledWith('hooks.example.com');
    // The same refusal where a connection would be observable: one address is our receiver.
    const mixed = new HttpWebhookSender({ lookup: resolvesTo('127.0.0.1', '10.0.0.1') });
    expect(await mixed.send(webhook('/ok', { url: `http://receiver.localhost:${port}/ok` }))).toMatchObject({ ok: false, error: 'blocked-address' });
    expect(connections).toBe(0);
  });

  it('checks at connect time: a name that was safe when configured and now resolves to a private address is refused (DNS rebinding)', async () => {
    let calls = 0;
    const rebinding: LookupAll = async () => [{ address: (calls += 1) === 1 ? '127.0.0.1' : '192.168.1.1', family: 4 }];
    await expect(assertSafeWebhookUrl(`http://receiver.localhost:${port}/ok`, { allowLoopback: true, lookup: rebinding })).resolves.toBeInstanceOf(URL);
    expect(await new HttpWebhookSender({ lookup: rebinding }).send(webhook('/ok', { url: `http://receiver.localhost:${port}/ok` }))).toMatchObject({
      ok: false,
      error: 'blocked-address',
    });
    expect(connections).toBe(0);
  });

  it('reaches a loopback receiver by name only with allowLoopback', async () => {
    const viaName = new HttpWebhookSender({ lookup: resolvesTo('127.0.0.1') });
    expect(await viaName.send(webhook('/ok', { url: `http://receiver.localhost:${port}/ok` }))).toMatchObject({ ok: true, status: 200 });
    expect(await viaName.send(webhook('/ok', { url: `https://receiver.example:${port}/ok`, allowLoopback: false }))).toMatchObject({
      error: 'blocked-address',
    });
    expect(connections).toBe(1);
  });

  it('allowLoopback false against 127.0.0.1 is "blocked-address" without a connection', async () => {
    expect(await sender.send(webhook('/ok', { allowLoopback: false }))).toMatchObject({ ok: false, error: 'blocked-address' });
    expect(await sender.send(webhook('/ok', { url: `http://2130706433:${port}/ok`, allowLoopback: false }))).toMatchObject({ error: 'blocked-address' });
    expect(await sender.send(webhook('/ok', { url: 'https://169.254.169.254/latest/meta-data/' }))).toMatchObject({ error: 'blocked-address' });
    expect(connections).toBe(0);
  });

  it('a URL that fails the syntax rules is "invalid-url"; one that does not resolve is "dns"', async () => {
    expect(await sender.send(webhook('/', { url: 'ftp://hooks.example.com/' }))).toMatchObject({ ok: false, error: 'invalid-url' });
    expect(await sender.send(webhook('/', { url: 'http://hooks.example.com/' }))).toMatchObject({ ok: false, error: 'invalid-url' });
    expect(await sender.send(webhook('/', { url: 'not a url' }))).toMatchObject({ ok: false, error: 'invalid-url' });
    const nowhere = new HttpWebhookSender({ lookup: () => Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' })) });
    expect(await nowhere.send(webhook('/', { url: 'https://nowhere.example/' }))).toMatchObject({ ok: false, error: 'dns' });
  });

  it('stops when the caller aborts (reported as a timeout), and sends nothing if already aborted', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const result = await new HttpWebhookSender({ timeoutMs: 10_000 }).send(webhook('/silent'), controller.signal);
    expect(result).toMatchObject({ ok: false, error: 'timeout' });
    expect(result.durationMs).toBeLessThan(2_000);
    connections = 0;
    expect(await sender.send(webhook('/ok'), AbortSignal.abort())).toMatchObject({ ok: false, error: 'timeout' });
    expect(connections).toBe(0);
  });

  it('opens a fresh connection for every delivery (no pooled socket shared between merchants)', async () => {
    await sender.send(webhook('/ok'));
    await sender.send(webhook('/ok'));
    expect(connections).toBe(2);
  });

  it('refuses, as a programming error, headers that are the sender’s own', async () => {
    await expect(sender.send(webhook('/ok', { headers: { Host: 'internal.example' } }))).rejects.toThrow(TypeError);
    await expect(sender.send(webhook('/ok', { headers: { 'Content-Length': '1' } }))).rejects.toThrow(TypeError);
    expect(() => new HttpWebhookSender({ timeoutMs: 0 })).toThrow();
  });
});

describe('deliveryErrorOf', () => {
  it.each([
    ['EBLOCKEDADDRESS', 'blocked-address'],
    ['ENOTFOUND', 'dns'],
    ['EAI_AGAIN', 'dns'],
    ['EDNSTIMEOUT', 'dns'],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'tls'],
    ['CERT_HAS_EXPIRED', 'tls'],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'tls'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'tls'],
    ['ERR_SSL_WRONG_VERSION_NUMBER', 'tls'],
    ['EPROTO', 'tls'],
    ['ECONNREFUSED', 'connection'],
    ['ECONNRESET', 'connection'],
    ['EHOSTUNREACH', 'connection'],
    ['HPE_INVALID_CONSTANT', 'connection'],
    [undefined, 'connection'],
  ])('%s → %s', (code, expected) => {
    expect(deliveryErrorOf(Object.assign(new Error('raw text'), { code }))).toBe(expected);
  });

  it('an OpenSSL error without a known code is tls; a non-error is connection', () => {
    expect(deliveryErrorOf(Object.assign(new Error('x'), { library: 'SSL routines' }))).toBe('tls');
    expect(deliveryErrorOf(null)).toBe('connection');
  });
});
