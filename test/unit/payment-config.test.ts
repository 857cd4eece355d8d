import { describe, expect, it, vi } from 'vitest';

/** Configuration is read once per cold start; each case loads the module afresh. */
async function loadModule<T>(path: string, env: Record<string, string | undefined>): Promise<T> {
  vi.resetModules();
  const saved = { ...process.env };
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  try {
    return (await import(path)) as T;
  } finally {
    for (const name of Object.keys(env)) delete process.env[name];
    Object.assign(process.env, saved);
  }
}
const load = async (env: Record<string, string | undefined>) =>
  (await loadModule<typeof import('../../lib/composition/config/payment-config.js')>('../../lib/composition/config/payment-config.js', env)).paymentConfig;
const loadCheckout = async (env: Record<string, string | undefined>) =>
  (await loadModule<typeof import('../../lib/composition/config/checkout-config.js')>('../../lib/composition/config/checkout-config.js', env)).checkoutConfig;

describe('checkout configuration (the payment functions only)', () => {
  it('parses named network JWKS URLs with defaults', async () => {
    const config = await loadCheckout({
      NETWORK_JWKS_URLS: 'visa=https://v.example/jwks,mastercard=file:///tmp/mc.json',
      CHECKOUT_MAX_AGE_SECONDS: '',
    }).catch((e) => e);
    expect(config).toBeInstanceOf(Error); // empty strings are not numbers: fail loudly
    const ok = await loadCheckout({ NETWORK_JWKS_URLS: 'visa=https://v.example/jwks,mastercard=file:///tmp/mc.json' });
    expect(ok.NETWORK_JWKS_URLS).toEqual([
      { name: 'visa', url: 'https://v.example/jwks' },
      { name: 'mastercard', url: 'file:///tmp/mc.json' },
    ]);
    expect(ok.CHECKOUT_MAX_AGE_SECONDS).toBe(900);
  });

  it.each([
    ['no networks', { NETWORK_JWKS_URLS: undefined }],
    ['duplicate network', { NETWORK_JWKS_URLS: 'visa=https://a.example,visa=https://b.example' }],
    ['missing name', { NETWORK_JWKS_URLS: 'https://a.example' }],
    ['ftp URL', { NETWORK_JWKS_URLS: 'visa=ftp://a.example' }],
  ])('rejects %s', async (_name, env) => {
    await expect(loadCheckout(env)).rejects.toThrow(/Invalid configuration: check NETWORK_JWKS_URLS/);
  });
});

describe('payment configuration (every function that reaches an acquirer)', () => {
  it('has defaults, and needs no network keys (the lifecycle and processor functions never verify a checkout)', async () => {
    expect(await load({ NETWORK_JWKS_URLS: undefined })).toMatchObject({ AUTHORIZER_TIMEOUT_MS: 10_000, PAYMENT_LEASE_SECONDS: 30 });
    await expect(load({ AUTHORIZER_TIMEOUT_MS: '', PAYMENT_LEASE_SECONDS: '' })).rejects.toThrow(/Invalid configuration/); // empty strings are not numbers
  });

  it('rejects a lease shorter than the authorizer timeout', async () => {
    await expect(load({ AUTHORIZER_TIMEOUT_MS: '10000', PAYMENT_LEASE_SECONDS: '12' })).rejects.toThrow(/Invalid configuration: check PAYMENT_LEASE_SECONDS/);
  });
});

describe('CONFIG_CACHE_SECONDS (the standing cache’s staleness bound)', () => {
  const NETWORKS = { NETWORK_JWKS_URLS: 'visa=https://v.example/jwks' };

  it('defaults to 10 s and takes 0–300', async () => {
    const saved = process.env.CONFIG_CACHE_SECONDS;
    delete process.env.CONFIG_CACHE_SECONDS;
    try {
      expect((await load(NETWORKS)).CONFIG_CACHE_SECONDS).toBe(10);
    } finally {
      if (saved !== undefined) process.env.CONFIG_CACHE_SECONDS = saved;
    }
    expect((await load({ ...NETWORKS, CONFIG_CACHE_SECONDS: '0' })).CONFIG_CACHE_SECONDS).toBe(0);
    expect((await load({ ...NETWORKS, CONFIG_CACHE_SECONDS: '300' })).CONFIG_CACHE_SECONDS).toBe(300);
    for (const bad of ['301', '-1', '1.5', 'ten']) await expect(load({ ...NETWORKS, CONFIG_CACHE_SECONDS: bad }), bad).rejects.toThrow(/CONFIG_CACHE_SECONDS/);
  });

  it('is what the payment functions cache for, in seconds', async () => {
    vi.resetModules();
    vi.stubEnv('CONFIG_CACHE_SECONDS', '7');
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const { paymentDeps } = await import('../../lib/composition/payments.js');
      const { configRepository } = await import('../../lib/composition/core.js');
      const reads = vi.spyOn(configRepository, 'getMerchant').mockResolvedValue(undefined);
      vi.spyOn(configRepository, 'getPlatformMethods').mockResolvedValue(undefined);
      vi.spyOn(configRepository, 'getTenantMethods').mockResolvedValue(undefined);
      await paymentDeps.standing.load('t-1', 'm-1');
      vi.setSystemTime(Date.now() + 6_999);
      await paymentDeps.standing.load('t-1', 'm-1');
      expect(reads).toHaveBeenCalledTimes(1);
      vi.setSystemTime(Date.now() + 1);
      await paymentDeps.standing.load('t-1', 'm-1');
      expect(reads).toHaveBeenCalledTimes(2);
    } finally {
      vi.useRealTimers();
      vi.unstubAllEnvs();
      vi.restoreAllMocks();
    }
  });
});
