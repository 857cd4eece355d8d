import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handler as sandboxSrc } from '../../functions/sandbox-src/handler.js';
import { invoke } from './invoke.js';

/**
 * The sandbox SRC's Lambda behind a real socket, as the deployed API serves it, so the
 * service's SandboxNetworkClient reaches it over HTTP. Faults for the tests:
 * - failNext(n, status): the next n requests get `status` (e.g. 503) and never reach the network;
 * - freeze(): requests are held unanswered (a hung network); thaw() passes them on, whoever
 *   still listens gets the answer — the network records them like a resumed process would.
 */
export async function sandboxNetworkServer() {
  let failures: { left: number; status: number } = { left: 0, status: 503 };
  let frozen = false;
  const held: (() => void)[] = [];
  let requests = 0;

  const forward = async (req: IncomingMessage, res: ServerResponse, body: string) => {
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
    const result = await invoke(sandboxSrc, {
      method: req.method ?? 'POST',
      path: req.url ?? '/',
      headers,
      body,
      contentType: headers['content-type'] ?? null,
    });
    res.writeHead(result.status, result.headers).end(result.raw);
  };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      requests++;
      if (failures.left > 0) {
        failures.left--;
        res.writeHead(failures.status, { 'Content-Type': 'application/json' }).end('{"error":{"reason":"SERVICE_ERROR"}}');
        return;
      }
      const run = () => void forward(req, res, body).catch(() => res.destroy());
      if (frozen) held.push(run);
      else run();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/sandbox/src/confirmations`,
    requests: () => requests,
    failNext: (left: number, status = 503) => (failures = { left, status }),
    freeze: () => (frozen = true),
    thaw: () => {
      frozen = false;
      held.splice(0).forEach((run) => run());
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** What the sandbox network recorded for one checkout (POST /sandbox/src/confirmations/search). */
export async function networkRecord(srcCorrelationId: string) {
  const response = await invoke(sandboxSrc, { method: 'POST', path: '/sandbox/src/confirmations/search', body: { srcCorrelationId } });
  if (response.status !== 200) throw new Error(`search failed: ${response.raw}`);
  return response.body as { srcCorrelationId: string; receipts: number; confirmations: { confirmationId: string; receivedAt: string; body: any }[] };
}
