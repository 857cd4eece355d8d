import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the ACS origin serves: the sandbox ACS (SANDBOX_ACS_PATH), nothing else of the API. */
const ACS_PREFIX = '/sandbox/3ds/';

export interface AcsOrigin {
  baseUrl: string;
  close(): Promise<void>;
}

/**
 * The sandbox ACS on an origin of its own, as an issuer's ACS is: `http://127.0.0.1:<port>`
 * while the service is `http://localhost:<PORT>` — another host and port, so the challenge
 * frame is cross-origin (and cross-site) to the checkout page exactly as in production. It
 * forwards the ACS's path to the local API and answers 404 for everything else.
 */
export async function startAcsOrigin(apiPort: number): Promise<AcsOrigin> {
  const server: Server = createServer((incoming, outgoing) => {
    if (!incoming.url?.startsWith(ACS_PREFIX)) {
      outgoing.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');
      return;
    }
    const forwarded = request(
      { host: '127.0.0.1', port: apiPort, method: incoming.method, path: incoming.url, headers: { ...incoming.headers, host: `127.0.0.1:${apiPort}` } },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => {
      if (!outgoing.headersSent) outgoing.writeHead(502, { 'Content-Type': 'text/plain' });
      outgoing.end('The local API is not answering.');
    });
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
