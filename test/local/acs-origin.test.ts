// The sandbox ACS's own origin (infra/local/acs-origin.ts) across restarts of `npm start`: a
// payment waiting for 3DS carries its URL in DynamoDB, so the origin must not move.
// Self-contained: a stand-in API on a local port, a temporary data directory.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ACS_PORT_FILE, startPersistentAcsOrigin, type AcsOrigin } from '../../infra/local/acs-origin.js';

let api: Server;
let apiPort: number;
let dataDir: string;
const open: AcsOrigin[] = [];
const log: string[] = [];

beforeAll(async () => {
  api = createServer((request, response) => response.writeHead(200, { 'content-type': 'text/plain' }).end(`api saw ${request.method} ${request.url}`));
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  apiPort = (api.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => api.close(() => resolve())));
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'ctp-acs-'));
  log.length = 0;
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((origin) => origin.close()));
  await rm(dataDir, { recursive: true, force: true });
});

async function start(): Promise<AcsOrigin> {
  const origin = await startPersistentAcsOrigin(apiPort, dataDir, (line) => log.push(line));
  open.push(origin);
  return origin;
}
async function stop(origin: AcsOrigin): Promise<void> {
  open.splice(open.indexOf(origin), 1);
  await origin.close();
}

describe('the sandbox ACS origin of npm start', () => {
  it('is the same after a restart, and serves the challenge there (a waiting payment’s acsUrl still works)', async () => {
    const first = await start();
    const acsUrl = `${first.baseUrl}/sandbox/3ds/challenge`; // what a payment in AWAIT_3DS stores
    await stop(first);
    const again = await start();
    expect(again.baseUrl).toBe(first.baseUrl);
    const answer = await fetch(acsUrl, { method: 'POST', body: 'creq=x' });
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe('api saw POST /sandbox/3ds/challenge');
    expect(log).toEqual([]);
    expect(JSON.parse(await readFile(join(dataDir, ACS_PORT_FILE), 'utf8'))).toEqual({ port: Number(new URL(first.baseUrl).port) });
  });

  it('serves only the ACS there, nothing else of the API', async () => {
    const origin = await start();
    expect((await fetch(`${origin.baseUrl}/config/configs/vctp/encryption-keys`)).status).toBe(404);
  });

  it('moves to a new port, and says so, when another process holds the old one', async () => {
    const first = await start();
    const port = Number(new URL(first.baseUrl).port);
    await stop(first);
    const squatter = createServer((_, response) => response.end('someone else'));
    await new Promise<void>((resolve) => squatter.listen(port, '127.0.0.1', resolve));
    try {
      const moved = await start();
      expect(moved.baseUrl).not.toBe(first.baseUrl);
      expect(log.join('\n')).toMatch(new RegExp(`port ${port} is taken`));
      expect(JSON.parse(await readFile(join(dataDir, ACS_PORT_FILE), 'utf8')).port).toBe(Number(new URL(moved.baseUrl).port));
    } finally {
      await new Promise<void>((resolve) => squatter.close(() => resolve()));
    }
  });

  it('starts on a fresh port when the kept one is unreadable or is the API’s own', async () => {
    await writeFile(join(dataDir, ACS_PORT_FILE), 'not json');
    const fresh = await start();
    expect(Number(new URL(fresh.baseUrl).port)).toBeGreaterThan(0);
    await stop(fresh);
    await writeFile(join(dataDir, ACS_PORT_FILE), JSON.stringify({ port: apiPort }));
    const other = await start();
    expect(Number(new URL(other.baseUrl).port)).not.toBe(apiPort);
  });
});
