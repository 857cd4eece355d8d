/**
 * Second red team of issue 7 (browser tokens, outlet scope, bodies, log redaction, CORS,
 * sandbox SRC limits, local processes). The first one (test/faults/red-team.test.ts) covered
 * leases, the acquirer lookup and lost writes. Every defect found here was fixed; each test
 * now guards its fix.
 */
import { randomInt } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SrcLimits } from '../../lib/adapters/sandbox/src/rate-limits.js';
import { invoke } from '../support/invoke.js';
import { DPA } from '../sandbox/src-client.js';
import { limitedSrcNetwork } from '../support/limited-src-network.js';

afterEach(() => {
  vi.restoreAllMocks();
});

/** A sandbox network with its own limits and its own window (test/support/limited-src-network.ts). */
function srcNetwork(limits: Partial<SrcLimits>) {
  const { post } = limitedSrcNetwork(limits);
  const init = (sourceIp: string) => post('/init', DPA, sourceIp);
  return { init };
}

describe('sandbox SRC: per-client session limit', () => {
  it('an IPv4 client is limited (control)', async () => {
    const { init } = srcNetwork({ sessionsPerClient: { max: 3, windowSeconds: 60 } });
    const ip = `198.51.100.${randomInt(1, 250)}`;
    for (let i = 0; i < 3; i += 1) expect((await init(ip)).status).toBe(200);
    expect((await init(ip)).status).toBe(429);
  });

  // rate-limits.ts / network.ts init(): the subject is the full sourceIp. One IPv6 client owns
  // at least a /64 (2^64 addresses), so it gets a fresh budget with every address it picks.
  it('RT2-1: one IPv6 client (one /64) is not limited: every address of its /64 gets a fresh budget', async () => {
    const { init } = srcNetwork({ sessionsPerClient: { max: 3, windowSeconds: 60 } });
    const prefix = `2001:db8:${randomInt(0, 0xffff).toString(16)}:${randomInt(0, 0xffff).toString(16)}`;
    const statuses: number[] = [];
    for (let i = 1; i <= 6; i += 1) statuses.push((await init(`${prefix}::${i.toString(16)}`)).status);
    expect(statuses.slice(3)).toEqual([429, 429, 429]);
  });
});

describe('sandbox ACS under a dependency failure', () => {
  // functions/sandbox-acs/handler.ts: the catch-all answered every error with 400 "This
  // verification request is not valid", a DynamoDB outage included: the shopper was told
  // their challenge was bad, and nothing said "retry" (SPEC §2: 503 with Retry-After).
  it('RT2-5 (fixed): DynamoDB unavailable → 503 with Retry-After, not 400 "not valid"', async () => {
    const { SandboxAcsRepository } = await import('../../lib/adapters/sandbox/sandbox-acs-repository.js');
    const { DependencyUnavailableError } = await import('../../lib/core/errors.js');
    const { handler: acs } = await import('../../functions/sandbox-acs/handler.js');
    vi.spyOn(SandboxAcsRepository.prototype, 'get').mockRejectedValue(new DependencyUnavailableError());
    const creq = Buffer.from(
      JSON.stringify({
        threeDSServerTransID: '8a880dc0-d2d2-4067-bcb1-b08d1690b26e',
        acsTransID: '0b6c7a52-3f0e-4b7e-9d51-2f6f3c1e9a10',
        messageType: 'CReq',
        messageVersion: '2.2.0',
        challengeWindowSize: '05',
      }),
    ).toString('base64url');
    const shown = await invoke(acs as never, {
      method: 'POST',
      path: '/sandbox/3ds/challenge',
      body: new URLSearchParams({ creq }).toString(),
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(shown.status).toBe(503);
    expect(shown.headers['Retry-After']).toBeDefined();
  });
});
