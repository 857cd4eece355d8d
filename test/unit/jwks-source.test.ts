import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JwksSource } from '../../lib/jose/jwks-source.js';
import { NetworkKeyRing } from '../../lib/checkout/network-keys.js';
import { CheckoutSignatureInvalidError, DependencyUnavailableError } from '../../lib/errors.js';

/** SPEC 4.3 step 2 / §6: cached keys, one refresh on an unknown kid, at most once a minute. */
let server: Server;
let url: string;
let fetches = 0;
let keys: object[] = [];
let failing = false;

beforeAll(async () => {
  const { publicKey } = await generateKeyPair('RS256', { extractable: true });
  keys = [{ ...(await exportJWK(publicKey)), kid: 'k1', use: 'sig' }];
  server = createServer((_, response) => {
    fetches++;
    if (failing) return void response.writeHead(500).end();
    response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ keys }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('JwksSource', () => {
  it('loads once, caches, and refreshes an unknown kid at most once per interval', async () => {
    fetches = 0;
    let now = 1_000_000;
    const jwks = new JwksSource(url, { now: () => now, minRefreshIntervalMs: 60_000 });
    expect(await jwks.resolve('k1', 'RS256')).toBeDefined();
    expect(await jwks.resolve('k1', 'RS256')).toBeDefined();
    expect(fetches).toBe(1);
    for (let i = 0; i < 20; i++) expect(await jwks.resolve(`junk-${i}`, 'RS256')).toBeUndefined();
    expect(fetches).toBe(1); // junk kids within the minute cause no fetch storm
    now += 61_000;
    expect(await jwks.resolve('junk', 'RS256')).toBeUndefined();
    expect(fetches).toBe(2);
  });

  it('refuses a key whose type does not fit the algorithm, and HMAC never resolves', async () => {
    const jwks = new JwksSource(url);
    expect(await jwks.resolve('k1', 'ES256')).toBeUndefined();
    expect(await jwks.resolve('k1', 'HS256')).toBeUndefined();
  });

  it('keeps serving the last good set when a refresh fails, and is a 503 when there never was one', async () => {
    let now = 0;
    const jwks = new JwksSource(url, { now: () => now });
    expect(await jwks.resolve('k1', 'RS256')).toBeDefined();
    failing = true;
    now += 11 * 60_000; // stale: a scheduled refresh, which fails
    expect(await jwks.resolve('k1', 'RS256')).toBeDefined();
    await expect(new JwksSource(url).resolve('k1', 'RS256')).rejects.toBeInstanceOf(DependencyUnavailableError);
    failing = false;
  });

  it('accepts only https, http and file URLs', () => {
    expect(() => new JwksSource('ftp://example.com/jwks')).toThrow();
  });
});

describe('NetworkKeyRing', () => {
  it('finds a kid in whichever network has it, even while another network is down', async () => {
    const ring = new NetworkKeyRing([
      { name: 'visa', url: 'file:///nonexistent/jwks.json' },
      { name: 'sandbox', url },
    ]);
    expect((await ring.resolve('k1', 'RS256')).network).toBe('sandbox');
    // A kid nobody reachable has, while a network is down: we cannot tell → 503, not 422.
    await expect(ring.resolve('unknown', 'RS256')).rejects.toBeInstanceOf(DependencyUnavailableError);
    const healthy = new NetworkKeyRing([{ name: 'sandbox', url }]);
    expect((await healthy.resolve('k1', 'RS256')).network).toBe('sandbox');
    await expect(healthy.resolve('nope', 'RS256')).rejects.toBeInstanceOf(CheckoutSignatureInvalidError);
  });
});
