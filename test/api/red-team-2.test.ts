/**
 * Second red team of issue 7 (browser tokens, outlet scope, bodies, log redaction, CORS,
 * sandbox SRC limits, local processes). The first one (test/faults/red-team.test.ts) covered
 * leases, the acquirer lookup and lost writes. Every defect found here was fixed; each test
 * now guards its fix.
 */
import { randomInt } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Logger, redact } from '../../lib/core/ports/logger.js';
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

describe('log redaction', () => {
  const linesOf = (write: (logger: Logger) => void) => {
    const lines: string[] = [];
    write(new Logger({}, 'debug', (line) => lines.push(line)));
    return lines.join('\n');
  };

  // logger.ts redact(): only strings go through redactCardNumbers; a number is copied as is.
  // The logger promises that a careless `logger.info('x', { body })` cannot leak card data,
  // and clients do send PANs as JSON numbers.
  it('RT2-2: a card number that is a JSON number reaches the log line in clear', () => {
    const line = linesOf((logger) => logger.info('request body', { body: { card: { number: 4111111111111111 }, accountNumber: 5555555555554444 } }));
    expect(line).not.toContain('4111111111111111');
    expect(line).not.toContain('5555555555554444');
  });

  // redact-card-numbers.ts CANDIDATE: groups may be separated by ONE space, '-' or '.'; two
  // spaces, a tab or a slash split the card into short runs that are each left alone.
  it('RT2-3: a card number grouped with two spaces, a tab or a slash is not redacted', () => {
    for (const written of ['4111  1111  1111  1111', '4111\t1111\t1111\t1111', '4111/1111/1111/1111']) {
      expect(redact(`card ${written}`)).not.toContain('4111');
    }
  });

  // logger.ts SENSITIVE_KEY: "cryptogram" and "dynamicdata" are there, but the names the
  // networks and 3DS give the same value are not (TAVV is one of SPEC 4.3 step 6's types);
  // a cryptogram is base64, so the Luhn rule never catches it either.
  it('RT2-4: cryptograms under their network names (tavv, cavv, authenticationValue) are logged in clear', () => {
    const cryptogram = 'AgAAAAAABk4DWZ4C28yUQAAAAAA=';
    const line = linesOf((logger) => logger.info('3ds result', { tavv: cryptogram, cavv: cryptogram, authenticationValue: cryptogram }));
    expect(line).not.toContain(cryptogram);
  });

  it('held: ids are never cut (UUIDs, base64url session ids, PAR) and a plain PAN is', () => {
    const ids = ['f0745073-fc9a-4bc1-2345-411111111111', 'src_4111111111111111abc', 'V0010013819219553391925592151', 'o-4111111111111111'];
    for (const id of ids) expect(redact(`"paymentRef":"${id}"`)).toContain(id);
    expect(redact('pan 4111 1111 1111 1111')).toBe('pan [redacted-pan]');
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
