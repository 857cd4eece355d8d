import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runWithDeadline } from '../../lib/core/deadline.js';
import { NetworkKeyRing } from '../../lib/adapters/jwks/network-key-ring.js';
import { CheckoutSignatureInvalidError, DependencyUnavailableError } from '../../lib/core/errors.js';
import { JwksSource } from '../../lib/adapters/jwks/jwks-source.js';
import { errorHeaders } from '../../lib/http/error-status.js';

/**
 * SPEC 4.3 step 2 / §6: cached keys, one refresh on an unknown kid, at most once a minute;
 * a failed load of any kind backs off and keeps the last good set (issue 7 item 6).
 * Every JWKS path on the test server has its own behaviour and fetch count; no test waits
 * on a clock: time is an injected counter.
 */
type Behaviour = { status?: number; body?: string; hang?: boolean };
const behaviours = new Map<string, Behaviour>();
const fetches = new Map<string, number>();
const hanging = new Map<string, ServerResponse[]>();
let server: Server;
let base: string;
let rsaJwk: JWK;
let ecJwk: JWK;

const jwks = (...keys: object[]) => JSON.stringify({ keys });
const count = (path: string) => fetches.get(path) ?? 0;
/** A fresh path per test, so counts and behaviours never leak between tests. */
let sequence = 0;
function endpoint(behaviour: Behaviour): { path: string; url: string; set: (next: Behaviour) => void } {
  const path = `/jwks-${(sequence += 1)}.json`;
  behaviours.set(path, behaviour);
  return { path, url: `${base}${path}`, set: (next) => behaviours.set(path, next) };
}
/** Resolves once the server holds `n` unanswered requests for `path`. */
async function heldRequests(path: string, n: number): Promise<void> {
  while ((hanging.get(path)?.length ?? 0) < n) await new Promise((resolve) => setImmediate(resolve));
}
function release(path: string, body = jwks()): void {
  for (const response of hanging.get(path)?.splice(0) ?? []) response.writeHead(200).end(body);
}

beforeAll(async () => {
  rsaJwk = { ...(await exportJWK((await generateKeyPair('RS256', { extractable: true })).publicKey)), kid: 'k1', use: 'sig' };
  ecJwk = { ...(await exportJWK((await generateKeyPair('ES256', { extractable: true })).publicKey)), kid: 'ec1' };
  server = createServer((request, response) => {
    const path = request.url ?? '';
    fetches.set(path, count(path) + 1);
    const behaviour = behaviours.get(path) ?? { status: 404 };
    if (behaviour.hang) return void hanging.set(path, [...(hanging.get(path) ?? []), response]);
    response.writeHead(behaviour.status ?? 200, { 'Content-Type': 'application/json' }).end(behaviour.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const path of hanging.keys()) release(path);
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

let now = 0;
const clock = { now: () => now };
beforeEach(() => {
  now = 1_000_000;
});

describe('JwksSource', () => {
  it('loads once, caches, and refreshes an unknown kid at most once per interval', async () => {
    const { path, url } = endpoint({ body: jwks(rsaJwk) });
    const source = new JwksSource(url, { ...clock, minRefreshIntervalMs: 60_000 });
    expect(await source.resolve('k1', 'RS256')).toBeDefined();
    expect(await source.resolve('k1', 'RS256')).toBeDefined();
    expect(count(path)).toBe(1);
    for (let i = 0; i < 20; i++) expect(await source.resolve(`junk-${i}`, 'RS256')).toBeUndefined();
    expect(count(path)).toBe(1); // junk kids within the minute cause no fetch storm
    now += 61_000;
    expect(await source.resolve('junk', 'RS256')).toBeUndefined();
    expect(count(path)).toBe(2);
  });

  it('refuses a key whose type does not fit the algorithm, and HMAC never resolves', async () => {
    const source = new JwksSource(endpoint({ body: jwks(rsaJwk) }).url);
    expect(await source.resolve('k1', 'ES256')).toBeUndefined();
    expect(await source.resolve('k1', 'HS256')).toBeUndefined();
  });

  it('ignores oct and private entries, and a later duplicate kid cannot replace the first', async () => {
    const oct = { kty: 'oct', k: 'c2VjcmV0', kid: 'oct' };
    const impostor = { ...ecJwk, kid: 'k1' };
    const source = new JwksSource(endpoint({ body: jwks(oct, { ...rsaJwk, kid: 'priv', d: 'x' }, rsaJwk, impostor) }).url);
    expect(await source.resolve('oct', 'HS256')).toBeUndefined();
    expect(await source.resolve('priv', 'RS256')).toBeUndefined();
    expect(await source.resolve('k1', 'RS256')).toBeDefined();
    expect(await source.resolve('k1', 'ES256')).toBeUndefined();
  });

  it('keeps serving the last good set when a refresh fails, and is a 503 when there never was one', async () => {
    const { url, set } = endpoint({ body: jwks(rsaJwk) });
    const source = new JwksSource(url, clock);
    expect(await source.resolve('k1', 'RS256')).toBeDefined();
    set({ status: 500 });
    now += 11 * 60_000; // stale: a scheduled refresh, which fails
    expect(await source.resolve('k1', 'RS256')).toBeDefined();
    await expect(new JwksSource(url).resolve('k1', 'RS256')).rejects.toBeInstanceOf(DependencyUnavailableError);
  });

  it('(a) a 200 whose keys is not an array keeps the good keys and is not refetched per request', async () => {
    const { path, url, set } = endpoint({ body: jwks(rsaJwk) });
    const source = new JwksSource(url, { ...clock, initialBackoffMs: 2_000, minRefreshIntervalMs: 60_000 });
    expect(await source.resolve('k1', 'RS256')).toBeDefined();
    for (const body of [JSON.stringify({ keys: {} }), JSON.stringify({ keys: 'k1' }), JSON.stringify({})]) {
      set({ body });
      now += 61_000; // an unknown kid may refresh again
      const before = count(path);
      for (let i = 0; i < 10; i++) {
        expect(await source.resolve('unknown', 'RS256')).toBeUndefined();
        expect(await source.resolve('k1', 'RS256')).toBeDefined(); // the good set stays
      }
      expect(count(path)).toBe(before + 1); // one failed fetch, then back-off
    }
    set({ body: jwks(rsaJwk, ecJwk) });
    now += 60_000; // the back-off is bounded by the refresh interval
    expect(await source.resolve('ec1', 'ES256')).toBeDefined();
  });

  it('(b) a failed first load backs off (503 meanwhile), doubling up to the refresh interval', async () => {
    const { path, url, set } = endpoint({ status: 503 });
    const source = new JwksSource(url, { ...clock, initialBackoffMs: 2_000, minRefreshIntervalMs: 10_000 });
    for (let i = 0; i < 20; i++) await expect(source.resolve('k1', 'RS256')).rejects.toBeInstanceOf(DependencyUnavailableError);
    expect(count(path)).toBe(1);
    now += 500; // Retry-After says when the next attempt is due
    const waiting = (await source.resolve('k1', 'RS256').catch((e: unknown) => e)) as DependencyUnavailableError;
    expect(errorHeaders(waiting)['Retry-After']).toBe('2');
    now -= 500;
    const attemptsAfter = async (ms: number) => {
      now += ms;
      await expect(source.resolve('k1', 'RS256')).rejects.toBeInstanceOf(DependencyUnavailableError);
      return count(path);
    };
    expect(await attemptsAfter(1_999)).toBe(1);
    expect(await attemptsAfter(1)).toBe(2); // 2 s after the first failure
    expect(await attemptsAfter(3_999)).toBe(2);
    expect(await attemptsAfter(1)).toBe(3); // then 4 s
    expect(await attemptsAfter(7_999)).toBe(3);
    expect(await attemptsAfter(1)).toBe(4); // then 8 s
    expect(await attemptsAfter(9_999)).toBe(4);
    expect(await attemptsAfter(1)).toBe(5); // then capped at the 10 s refresh interval
    set({ body: jwks(rsaJwk) });
    expect(await attemptsAfter(9_999)).toBe(5);
    now += 1;
    expect(await source.resolve('k1', 'RS256')).toBeDefined(); // recovered
    expect(count(path)).toBe(6);
  });

  it('(c) a null, array, number or non-JSON body is a failed load (503), never a TypeError', async () => {
    for (const body of ['null', '[]', '42', '"keys"', 'not json', '']) {
      const error = await new JwksSource(endpoint({ body }).url).resolve('k1', 'RS256').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DependencyUnavailableError);
      expect(errorHeaders(error as DependencyUnavailableError)['Retry-After']).toBe('2'); // the default first back-off
    }
    const { url, set } = endpoint({ body: jwks(rsaJwk) });
    const source = new JwksSource(url, clock);
    expect(await source.resolve('k1', 'RS256')).toBeDefined();
    set({ body: 'null' });
    now += 11 * 60_000;
    expect(await source.resolve('k1', 'RS256')).toBeDefined(); // the last good set stays
  });

  it('a fetch is aborted by the invocation deadline: 503, not a hang', async () => {
    const { path, url } = endpoint({ hang: true });
    const source = new JwksSource(url, { timeoutMs: 600_000 });
    const deadline = new AbortController();
    const pending = runWithDeadline({ signal: deadline.signal, at: Date.now() + 600_000 }, () => source.resolve('k1', 'RS256'));
    await heldRequests(path, 1);
    deadline.abort(new Error('invocation deadline'));
    await expect(pending).rejects.toBeInstanceOf(DependencyUnavailableError);
    release(path);
  });

  it('cached() never fetches and ignores a stale set', async () => {
    const { path, url } = endpoint({ body: jwks(rsaJwk) });
    const source = new JwksSource(url, clock);
    expect(await source.cached('k1', 'RS256')).toBeUndefined();
    expect(count(path)).toBe(0);
    await source.resolve('k1', 'RS256');
    expect(await source.cached('k1', 'RS256')).toBeDefined();
    now += 11 * 60_000;
    expect(await source.cached('k1', 'RS256')).toBeUndefined();
    expect(count(path)).toBe(1);
  });

  it('accepts only https, http and file URLs', () => {
    expect(() => new JwksSource('ftp://example.com/jwks')).toThrow();
  });
});

describe('NetworkKeyRing', () => {
  it('finds a kid in whichever network has it, even while another network is down', async () => {
    const { url } = endpoint({ body: jwks(rsaJwk) });
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

  it('asks the network the SDK shape names first, and no other when it has the kid', async () => {
    const visa = endpoint({ body: jwks(rsaJwk) });
    const mastercard = endpoint({ body: jwks(ecJwk) });
    const ring = new NetworkKeyRing(
      [
        { name: 'visa', url: visa.url },
        { name: 'mastercard', url: mastercard.url },
      ],
      clock,
    );
    expect(await ring.resolve('ec1', 'ES256', 'mastercard')).toMatchObject({ network: 'mastercard' });
    expect([count(visa.path), count(mastercard.path)]).toEqual([0, 1]);
    // A wrong hint only costs order: the kid is still found where it is.
    expect(await ring.resolve('k1', 'RS256', 'mastercard')).toMatchObject({ network: 'visa' });
    expect([count(visa.path), count(mastercard.path)]).toEqual([1, 1]); // mastercard: within its minute
  });

  it('a kid cached in any network resolves without any fetch, even while another network hangs', async () => {
    const visa = endpoint({ hang: true });
    const mastercard = endpoint({ body: jwks(ecJwk) });
    const ring = new NetworkKeyRing(
      [
        { name: 'visa', url: visa.url },
        { name: 'mastercard', url: mastercard.url },
      ],
      { ...clock, timeoutMs: 600_000 },
    );
    await ring.resolve('ec1', 'ES256', 'mastercard'); // warms the mastercard set only
    for (const hint of ['visa', 'mastercard', undefined]) {
      expect(await ring.resolve('ec1', 'ES256', hint)).toMatchObject({ network: 'mastercard' });
    }
    expect(count(visa.path)).toBe(0);
    expect(count(mastercard.path)).toBe(1);
  });

  it('an unknown kid: the first network that has it wins, without waiting for a hanging one', async () => {
    const hangs = endpoint({ hang: true });
    const has = endpoint({ body: jwks(rsaJwk) });
    const named = endpoint({ body: jwks() });
    const ring = new NetworkKeyRing(
      [
        { name: 'slow', url: hangs.url },
        { name: 'sandbox', url: has.url },
        { name: 'visa', url: named.url },
      ],
      { ...clock, timeoutMs: 600_000 },
    );
    const resolved = await ring.resolve('k1', 'RS256', 'visa');
    expect(resolved.network).toBe('sandbox');
    expect(count(named.path)).toBe(1); // the named network was asked first
    expect(hanging.get(hangs.path)).toHaveLength(1); // still unanswered: nobody waited for it
    release(hangs.path);
  });

  it('a named network that is down does not block the kid in another; nobody has it → 503 while one is down', async () => {
    const visa = endpoint({ status: 500 });
    const mastercard = endpoint({ body: jwks(ecJwk) });
    const ring = new NetworkKeyRing(
      [
        { name: 'visa', url: visa.url },
        { name: 'mastercard', url: mastercard.url },
      ],
      clock,
    );
    expect(await ring.resolve('ec1', 'ES256', 'visa')).toMatchObject({ network: 'mastercard' });
    await expect(ring.resolve('unknown', 'ES256', 'visa')).rejects.toBeInstanceOf(DependencyUnavailableError);
    expect(count(visa.path)).toBe(1); // backing off: the outage is not fetched per request
  });
});
