import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * The HTTP side shared by the processor fakes: a real server on a random loopback port, with the
 * faults a processor can show, settable per test:
 * - `hang`: reads the request, performs nothing, never answers;
 * - `server-error`: answers 5xx without performing;
 * - `server-error-after-perform`: performs, then answers 5xx;
 * - `reset-after-receipt`: performs, then resets the connection (RST) instead of answering;
 * - `lose-answer`: performs, then never answers (the answer is lost on the way);
 * - `refuse` (setRefusing): the port stops listening, so connections are refused.
 * Every answer says `Connection: close`, so a client never reuses a socket a fault has broken.
 */
export type FaultMode = 'hang' | 'server-error' | 'server-error-after-perform' | 'reset-after-receipt' | 'lose-answer';

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  /** The parsed JSON body (undefined when there was none); `rawBody` when it did not parse. */
  body: unknown;
  rawBody: string;
}

export interface FakeAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface FaultServerOptions {
  /** Performs the request and answers it. */
  handle(request: FakeRequest): Promise<FakeAnswer>;
  /** The 5xx a fault answers with (the processor's error shape). */
  serverError(): FakeAnswer;
  /** A request it should also see, for an assertion: the fake's own validation rejections, its ledger… */
  onRequest?(request: FakeRequest): void;
}

export interface FaultServer {
  readonly url: string;
  /** The next `times` requests (default 1) whose path matches `path` (default: any) show `mode`. */
  setFault(mode: FaultMode, options?: { times?: number; path?: RegExp }): void;
  clearFaults(): void;
  setRefusing(refusing: boolean): Promise<void>;
  close(): Promise<void>;
}

export async function startFaultServer(options: FaultServerOptions): Promise<FaultServer> {
  const faults: { mode: FaultMode; left: number; path?: RegExp }[] = [];
  const sockets = new Set<Socket>();
  const takeFault = (path: string): FaultMode | undefined => {
    const fault = faults.find((candidate) => candidate.left > 0 && (!candidate.path || candidate.path.test(path)));
    if (!fault) return undefined;
    fault.left -= 1;
    return fault.mode;
  };

  const server = createServer((req, res) => {
    void serve(req, res);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://fake');
    let body: unknown;
    try {
      body = rawBody === '' ? undefined : JSON.parse(rawBody);
    } catch {
      body = undefined;
    }
    const request: FakeRequest = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, body, rawBody };
    options.onRequest?.(request);
    const fault = takeFault(request.path);
    if (fault === 'hang') return; // read, not performed, never answered
    if (fault === 'server-error') return send(res, options.serverError());
    const answer = await options.handle(request);
    if (fault === 'server-error-after-perform') return send(res, options.serverError());
    if (fault === 'reset-after-receipt') return void req.socket.resetAndDestroy();
    if (fault === 'lose-answer') return; // performed; the answer never leaves
    send(res, answer);
  }

  await listen(server, 0);
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    setFault(mode, { times = 1, path } = {}) {
      faults.push({ mode, left: times, ...(path ? { path } : {}) });
    },
    clearFaults() {
      faults.length = 0;
    },
    async setRefusing(refusing) {
      if (refusing) {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          for (const socket of sockets) socket.destroy();
        });
      } else {
        await listen(server, port);
      }
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function listen(server: ReturnType<typeof createServer>, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function send(res: ServerResponse, answer: FakeAnswer): void {
  const body = answer.body === undefined ? '' : JSON.stringify(answer.body);
  res.writeHead(answer.status, { 'content-type': 'application/json', connection: 'close', ...answer.headers });
  res.end(body);
}
