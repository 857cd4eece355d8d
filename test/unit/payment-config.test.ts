import { describe, expect, it, vi } from 'vitest';

/** Payment configuration is read once per cold start; each case loads the module afresh. */
async function load(env: Record<string, string>) {
  vi.resetModules();
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    return (await import('../../lib/config/payment-config.js')).paymentConfig;
  } finally {
    for (const name of Object.keys(env)) delete process.env[name];
    Object.assign(process.env, saved);
  }
}

describe('payment configuration', () => {
  it('parses named network JWKS URLs with defaults', async () => {
    const config = await load({ NETWORK_JWKS_URLS: 'visa=https://v.example/jwks,mastercard=file:///tmp/mc.json', CHECKOUT_MAX_AGE_SECONDS: '', AUTHORIZER_TIMEOUT_MS: '', PAYMENT_LEASE_SECONDS: '' }).catch((e) => e);
    expect(config).toBeInstanceOf(Error); // empty strings are not numbers: fail loudly
    const ok = await load({ NETWORK_JWKS_URLS: 'visa=https://v.example/jwks,mastercard=file:///tmp/mc.json' });
    expect(ok.NETWORK_JWKS_URLS).toEqual([
      { name: 'visa', url: 'https://v.example/jwks' },
      { name: 'mastercard', url: 'file:///tmp/mc.json' },
    ]);
    expect(ok.CHECKOUT_MAX_AGE_SECONDS).toBe(900);
  });

  it.each([
    ['duplicate network', { NETWORK_JWKS_URLS: 'visa=https://a.example,visa=https://b.example' }],
    ['missing name', { NETWORK_JWKS_URLS: 'https://a.example' }],
    ['ftp URL', { NETWORK_JWKS_URLS: 'visa=ftp://a.example' }],
    ['lease shorter than the authorizer timeout', { NETWORK_JWKS_URLS: 'visa=https://a.example', AUTHORIZER_TIMEOUT_MS: '10000', PAYMENT_LEASE_SECONDS: '12' }],
  ])('rejects %s', async (_name, env) => {
    await expect(load(env)).rejects.toThrow(/Invalid configuration/);
  });
});
