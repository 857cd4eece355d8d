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
    orderRef: 'o',
    paymentRef: 'p',
    amount: { currencyCode: 'AED', value: 1000 },
    brand: 'VISA',
    notificationUrl: 'https://pay.example/checkout/3ds-notification',
  };

  it('sends the browser to the ACS on its own origin when SANDBOX_ACS_BASE_URL says so, else to the service', async () => {
    const apart = await new SandboxThreeDsServer(store(), { acsBaseUrl: 'http://127.0.0.1:4100/', ttlSeconds: 60, now: Date.now }).startChallenge(request);
    expect(apart.acsUrl).toBe('http://127.0.0.1:4100/sandbox/3ds/challenge');
    const own = await new SandboxThreeDsServer(store(), { acsBaseUrl: undefined, ttlSeconds: 60, now: Date.now }).startChallenge({
      ...request,
      notificationUrl: 'https://pay.example/stage/checkout/3ds-notification',
    });
    expect(own.acsUrl).toBe('https://pay.example/stage/sandbox/3ds/challenge');
  });

  it('keeps the notification URL with the transaction, and reports only the result the ACS recorded for that acsTransID', async () => {
    const acs = store();
    const server: ThreeDsServer = new SandboxThreeDsServer(acs, { acsBaseUrl: undefined, ttlSeconds: 60, now: Date.now });
    const started = await server.startChallenge(request);
    const ref = { transactionId: started.transactionId, acsTransactionId: started.acsTransactionId };
    const cres = { messageType: 'CRes' as const, threeDSServerTransID: ref.transactionId, acsTransID: ref.acsTransactionId, transStatus: 'Y' };
    expect(acs.items.get(started.transactionId)!.notificationUrl).toBe(request.notificationUrl);
    expect(await server.challengeResult(ref, cres)).toEqual({ kind: 'pending' }); // the cres says Y; nothing was recorded
    acs.items.get(started.transactionId)!.result = { transStatus: 'N', at: new Date().toISOString() };
    expect(await server.challengeResult(ref, cres)).toEqual({ kind: 'answered', transStatus: 'N' });
    expect(await server.challengeResult({ ...ref, acsTransactionId: crypto.randomUUID() }, cres)).toEqual({ kind: 'pending' });
  });
});
