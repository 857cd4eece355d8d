import { readFile, writeFile } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

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
export async function startAcsOrigin(apiPort: number, port = 0): Promise<AcsOrigin> {
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
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${bound}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Where `npm start` keeps the sandbox ACS's port, in its data directory. */
export const ACS_PORT_FILE = 'sandbox-acs.json';

/**
 * The sandbox ACS on the same origin as last time. Its URL is written into every payment that
 * waits for 3DS (`threeDs.acsUrl`, stored in DynamoDB under the data directory), so a restart
 * of `npm start` must not move it, as a real issuer's ACS does not move: the port is kept in
 * <dataDir>/sandbox-acs.json and taken again. If something else holds it now, a new port is
 * taken (and kept), and `log` says that challenges started before point at the old one.
 */
export async function startPersistentAcsOrigin(apiPort: number, dataDir: string, log: (line: string) => void): Promise<AcsOrigin> {
  const file = join(dataDir, ACS_PORT_FILE);
  const stored = await keptPort(file);
  const kept = stored === apiPort ? undefined : stored; // PORT moved onto it: the API comes first
  let origin: AcsOrigin | undefined;
  if (kept !== undefined) {
    try {
      origin = await startAcsOrigin(apiPort, kept);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
      log(
        `the sandbox ACS's port ${kept} is taken by another process: it moves to a new port; a payment already waiting for 3DS keeps the old acsUrl (restart once port ${kept} is free to finish it)`,
      );
    }
  }
  origin ??= await startAcsOrigin(apiPort);
  const port = Number(new URL(origin.baseUrl).port);
  if (port !== kept) await writeFile(file, `${JSON.stringify({ port })}\n`);
  return origin;
}

async function keptPort(file: string): Promise<number | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return undefined; // first start
  }
  try {
    const { port } = JSON.parse(text) as { port?: unknown };
    return Number.isInteger(port) && (port as number) > 0 && (port as number) < 65536 ? (port as number) : undefined;
  } catch {
    return undefined;
  }
}
