import { readFileSync } from 'node:fs';
import { randomInt } from 'node:crypto';
import { createServer } from 'node:net';

/** True when nothing listens on 127.0.0.1:port. */
export function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * The first port of the OS's ephemeral range (Linux: /proc/sys/net/ipv4/ip_local_port_range,
 * 32768 by default). A port asked for as "port 0" comes from that range, and so does the source
 * port of every outgoing connection: under load (parallel test files, each talking to DynamoDB
 * and KMS) a port said free a moment ago is taken by a client socket before the server that was
 * to listen on it binds (EADDRINUSE). Listening ports therefore come from below that range.
 */
function ephemeralRangeStart(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 0 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

const LISTEN_RANGE_START = 20_000;
const listenRangeEnd = ephemeralRangeStart();

/**
 * A port free right now, for a server to listen on: at random below the ephemeral range (where
 * no client socket takes it; at random so that parallel callers rarely pick the same one), and
 * never 3000 (the default `npm start` port). Where that range is too small, the OS's choice.
 */
export async function freePort(): Promise<number> {
  if (listenRangeEnd - LISTEN_RANGE_START < 1_000) return osFreePort();
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const port = randomInt(LISTEN_RANGE_START, listenRangeEnd);
    if (await isPortFree(port)) return port;
  }
  return osFreePort();
}

/** A port the OS says is free right now (from its ephemeral range), never 3000. */
function osFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port === 3000 || port === 0 ? osFreePort().then(resolve, reject) : resolve(port)));
    });
  });
}
