import { describe, expect, it, vi } from 'vitest';
import { acsThreeDsOrigins, contentSecurityPolicy } from '../../lib/http/checkout-page/security-headers.js';
import { SandboxThreeDsServer } from '../../lib/adapters/sandbox/sandbox-three-ds.js';
import type { AcsTransaction } from '../../lib/adapters/sandbox/sandbox-acs-repository.js';
import type { ThreeDsServer } from '../../lib/core/ports/three-ds-server.js';

const directive = (csp: string, name: string) => csp.split('; ').find((d) => d.startsWith(`${name} `));

describe('the page’s CSP admits the ACS of a challenge', () => {
  it('frames and form-POSTs to the configured ACS origins; scripts and connections stay ours', () => {
    const csp = contentSecurityPolicy(undefined, acsThreeDsOrigins('http://127.0.0.1:4100', ['https://acs.bank.example']));
    expect(directive(csp, 'frame-src')).toBe("frame-src 'self' http://127.0.0.1:4100 https://acs.bank.example");
    expect(directive(csp, 'form-action')).toBe("form-action 'self' http://127.0.0.1:4100 https://acs.bank.example");
    expect(directive(csp, 'script-src')).toBe("script-src 'self'");
    expect(directive(csp, 'connect-src')).toBe("connect-src 'self'");
  });

  it('without an ACS apart from the service: only self', () => {
    const csp = contentSecurityPolicy(undefined, acsThreeDsOrigins(undefined, undefined));
    expect(directive(csp, 'frame-src')).toBe("frame-src 'self'");
    expect(directive(csp, 'form-action')).toBe("form-action 'self'");
  });

  it('with a production 3DS Server and no THREE_DS_ACS_ORIGINS: any https ACS may be framed and posted to, nothing else widens', () => {
    const csp = contentSecurityPolicy(undefined, acsThreeDsOrigins(undefined, undefined, true));
    expect(directive(csp, 'frame-src')).toBe("frame-src 'self' https:");
    expect(directive(csp, 'form-action')).toBe("form-action 'self' https:");
    expect(directive(csp, 'script-src')).toBe("script-src 'self'");
    expect(directive(csp, 'connect-src')).toBe("connect-src 'self'");
    expect(directive(csp, 'frame-ancestors')).toBe("frame-ancestors 'none'");
    // A list given wins (a 3DS Server that proxies its issuers' challenges on one origin).
    expect(acsThreeDsOrigins(undefined, ['https://acs.3ds-server.example'], true)).toEqual(['https://acs.3ds-server.example']);
    expect(acsThreeDsOrigins(undefined, undefined, false)).toEqual([]);
  });

  it('the sandbox ACS base URL counts by its origin; `https:` admits any https ACS', () => {
    expect(acsThreeDsOrigins('https://acs.sandbox.example/prefix/', ['https:'])).toEqual(['https://acs.sandbox.example', 'https:']);
  });
});

describe('THREE_DS_ACS_ORIGINS and SANDBOX_ACS_BASE_URL', () => {
  async function load(env: Record<string, string>) {
    vi.resetModules();
    for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
    try {
      return await import('../../lib/composition/config/checkout-page-config.js').then((m) => m.checkoutPageConfig);
    } finally {
      vi.unstubAllEnvs();
    }
  }
  async function loadSandbox(env: Record<string, string>) {
    vi.resetModules();
    for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
    try {
      return await import('../../lib/composition/config/sandbox-config.js').then((m) => m.sandboxConfig);
    } finally {
      vi.unstubAllEnvs();
    }
  }

  it('accepts origins (https, http on loopback) and `https:`', async () => {
    expect((await load({ THREE_DS_ACS_ORIGINS: 'https://acs.bank.example, http://127.0.0.1:4100,https:' })).THREE_DS_ACS_ORIGINS).toEqual([
      'https://acs.bank.example',
      'http://127.0.0.1:4100',
      'https:',
    ]);
    expect((await load({ THREE_DS_ACS_ORIGINS: '' })).THREE_DS_ACS_ORIGINS).toBeUndefined();
  });

  it('refuses plain http off loopback, paths, wildcards and other schemes at cold start', async () => {
    for (const bad of [
      'http://acs.bank.example',
      'https://acs.bank.example/challenge',
      '*',
      'http:',
      'javascript:alert(1)',
      "https://a.example 'unsafe-inline'",
    ]) {
      await expect(load({ THREE_DS_ACS_ORIGINS: bad }), bad).rejects.toThrow(/THREE_DS_ACS_ORIGINS/);
    }
    for (const bad of ['http://acs.sandbox.example', 'file:///etc/passwd', 'not a url']) {
      await expect(loadSandbox({ SANDBOX_ACS_BASE_URL: bad }), bad).rejects.toThrow(/SANDBOX_ACS_BASE_URL/);
    }
    expect((await loadSandbox({ SANDBOX_ACS_BASE_URL: 'https://acs.sandbox.example' })).SANDBOX_ACS_BASE_URL).toBe('https://acs.sandbox.example');
  });
});

describe('the sandbox 3DS server', () => {
  const store = () => {
    const items = new Map<string, AcsTransaction>();
    return { items, put: async (t: AcsTransaction) => void items.set(t.transactionId, t), get: async (id: string) => items.get(id) };
  };
  const request = {
    transactionId: crypto.randomUUID(),
    messageVersion: '2.2.0' as const,
    brand: 'VISA' as const,
    account: { number: '4895370012007701', expiryMonth: '05', expiryYear: '2031' },
    amount: { currencyCode: 'AED', value: 1000 },
    purchaseDate: new Date(),
    threeDSCompInd: 'U' as const,
    notificationUrl: 'https://pay.example/checkout/3ds-notification',
  };
  const challengeOf = async (server: ThreeDsServer, req = request) => {
    const outcome = await server.authenticate(req, AbortSignal.timeout(1000));
    if (outcome.kind !== 'challenge') throw new Error(`expected a challenge, got ${outcome.kind}`);
    return outcome;
  };

  it('sends the browser to the ACS on its own origin when SANDBOX_ACS_BASE_URL says so, else to the service', async () => {
    const apart = await challengeOf(new SandboxThreeDsServer(store(), { acsBaseUrl: 'http://127.0.0.1:4100/', ttlSeconds: 60, now: Date.now }));
    expect(apart.acsUrl).toBe('http://127.0.0.1:4100/sandbox/3ds/challenge');
    const own = await challengeOf(new SandboxThreeDsServer(store(), { acsBaseUrl: undefined, ttlSeconds: 60, now: Date.now }), {
      ...request,
      notificationUrl: 'https://pay.example/stage/checkout/3ds-notification',
    });
    expect(own.acsUrl).toBe('https://pay.example/stage/sandbox/3ds/challenge');
  });

  it('prepares without a 3DS Method and needs neither browser data nor a requestor profile', async () => {
    const server = new SandboxThreeDsServer(store(), { acsBaseUrl: undefined, ttlSeconds: 60, now: Date.now });
    expect(server.requires).toEqual({ browserInfo: false, requestor: false });
    const prepared = await server.prepare({ brand: 'VISA', account: request.account, methodNotificationUrl: 'https://pay.example/m' });
    expect(prepared).toMatchObject({ kind: 'ready', messageVersion: '2.2.0' });
    expect(prepared).not.toHaveProperty('method');
  });

  it('keeps the notification URL with the transaction, and reports only the result the ACS recorded for that acsTransID', async () => {
    const acs = store();
    const server: ThreeDsServer = new SandboxThreeDsServer(acs, { acsBaseUrl: undefined, ttlSeconds: 60, now: Date.now });
    const { challenge } = await challengeOf(server);
    const ref = challenge;
    expect(acs.items.get(challenge.transactionId)!.notificationUrl).toBe(request.notificationUrl);
    expect(await server.challengeResult(ref, AbortSignal.timeout(1000))).toEqual({ kind: 'pending' }); // nothing was recorded
    expect(await server.recover(ref, AbortSignal.timeout(1000))).toEqual({ kind: 'spent', reason: 'no-result' });
    acs.items.get(challenge.transactionId)!.result = { transStatus: 'N', at: new Date().toISOString() };
    expect(await server.challengeResult(ref, AbortSignal.timeout(1000))).toMatchObject({ kind: 'failed', transStatus: 'N' });
    expect(await server.challengeResult({ ...ref, acsTransactionId: crypto.randomUUID() }, AbortSignal.timeout(1000))).toEqual({ kind: 'pending' });
    expect(await server.challengeResult({ ...ref, transactionId: crypto.randomUUID() }, AbortSignal.timeout(1000))).toEqual({ kind: 'expired' });
  });

  it('checks a cres by its ids only', async () => {
    const server = new SandboxThreeDsServer(store(), { acsBaseUrl: undefined, ttlSeconds: 60, now: Date.now });
    const { challenge } = await challengeOf(server);
    const cres = (ids: Record<string, unknown>) => Buffer.from(JSON.stringify({ messageType: 'CRes', transStatus: 'Y', ...ids })).toString('base64url');
    expect(server.checkCres(cres({ threeDSServerTransID: challenge.transactionId, acsTransID: challenge.acsTransactionId }), challenge)).toEqual({
      kind: 'matches',
      transStatus: 'Y',
    });
    expect(server.checkCres(cres({ threeDSServerTransID: challenge.transactionId, acsTransID: 'x' }), challenge)).toEqual({ kind: 'other-challenge' });
    expect(server.checkCres('bm90LWpzb24', challenge)).toEqual({ kind: 'malformed' });
  });
});
