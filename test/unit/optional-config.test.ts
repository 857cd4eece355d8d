import { describe, expect, it, vi } from 'vitest';

/** Each case loads a configuration module afresh with the given environment. */
async function load<T>(path: string, pick: (m: any) => T, env: Record<string, string | undefined>): Promise<T> {
  vi.resetModules();
  const saved = { ...process.env };
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  try {
    return pick(await import(path));
  } finally {
    process.env = saved;
  }
}
const page = (value: string | undefined) =>
  load('../../lib/composition/config/checkout-page-config.js', (m) => m.checkoutPageConfig, { CLICK_TO_PAY_SDK_URLS: value });
const sandbox = (value: string | undefined) =>
  load('../../lib/composition/config/sandbox-config.js', (m) => m.sandboxConfig, { SANDBOX_NETWORK_SIGNING_JWKS_URL: value });

describe('hosted page SDK URLs (CLICK_TO_PAY_SDK_URLS)', () => {
  it('unset or blank means none', async () => {
    expect((await page(undefined)).CLICK_TO_PAY_SDK_URLS).toBeUndefined();
    expect((await page('  ')).CLICK_TO_PAY_SDK_URLS).toBeUndefined();
  });

  it('parses name=url pairs into a map; http only on loopback', async () => {
    expect((await page('visa=https://sdk.visa.example/sdk.js,mastercard=http://127.0.0.1:9/mc.js')).CLICK_TO_PAY_SDK_URLS).toEqual({
      visa: 'https://sdk.visa.example/sdk.js',
      mastercard: 'http://127.0.0.1:9/mc.js',
    });
  });

  it.each(['visa=http://sdk.example/sdk.js', 'visa=https://a.example,visa=https://b.example', 'https://a.example', 'visa=file:///tmp/sdk.js'])(
    'rejects %s',
    async (value) => {
      await expect(page(value)).rejects.toThrow(/Invalid configuration: check CLICK_TO_PAY_SDK_URLS/);
    },
  );
});

describe('sandbox network signing key (SANDBOX_NETWORK_SIGNING_JWKS_URL)', () => {
  it('blank means the sandbox network is off; a URL switches it on; anything else fails', async () => {
    expect((await sandbox('')).SANDBOX_NETWORK_SIGNING_JWKS_URL).toBeUndefined();
    expect((await sandbox('file:///tmp/keys.json')).SANDBOX_NETWORK_SIGNING_JWKS_URL).toBe('file:///tmp/keys.json');
    await expect(sandbox('keys.json')).rejects.toThrow(/SANDBOX_NETWORK_SIGNING_JWKS_URL/);
  });
});

describe('the acquirer of production merchants (PRODUCTION_ACQUIRER)', () => {
  const acquirer = (value: string | undefined) =>
    load('../../lib/composition/config/acquirer-config.js', (m) => m.acquirerConfig, { PRODUCTION_ACQUIRER: value });

  it('is none unless set (blank = unset)', async () => {
    expect((await acquirer(undefined)).PRODUCTION_ACQUIRER).toBe('none');
    expect((await acquirer(' ')).PRODUCTION_ACQUIRER).toBe('none');
    expect((await acquirer('sandbox')).PRODUCTION_ACQUIRER).toBe('sandbox');
  });

  it('refuses anything else, naming the variable', async () => {
    await expect(acquirer('acme')).rejects.toThrow(/Invalid configuration: check PRODUCTION_ACQUIRER/);
  });

  it('wires the sandbox acquirer for production merchants only when told to', async () => {
    const pick = (m: any) => ({ same: m.productionAuthorizer === m.sandboxAuthorizer, kind: m.productionAuthorizer.constructor.name });
    expect(await load('../../lib/composition/acquirers.js', pick, { PRODUCTION_ACQUIRER: undefined })).toEqual({ same: false, kind: 'UnconfiguredAuthorizer' });
    expect((await load('../../lib/composition/acquirers.js', pick, { PRODUCTION_ACQUIRER: 'sandbox' })).same).toBe(true);
  });
});

describe('the sandbox table (SANDBOX_TABLE)', () => {
  const table = (value: string | undefined) => load('../../lib/composition/config/sandbox-config.js', (m) => m, { SANDBOX_TABLE: value });

  it('is unset when blank (a stage without the sandbox), a table name otherwise; anything else fails, naming it', async () => {
    expect((await table(' ')).sandboxConfig.SANDBOX_TABLE).toBeUndefined();
    expect((await table('click-to-pay-dev-sandbox')).sandboxConfig.SANDBOX_TABLE).toBe('click-to-pay-dev-sandbox');
    await expect(table('no spaces/here')).rejects.toThrow(/Invalid configuration: check SANDBOX_TABLE/);
  });

  it('is required by the sandbox’s own functions only', async () => {
    const { requireSandboxTable, parseSandboxConfig } = await table(undefined);
    expect(() => requireSandboxTable(parseSandboxConfig({}))).toThrow(/SANDBOX_TABLE/);
    expect(requireSandboxTable(parseSandboxConfig({ SANDBOX_TABLE: 'click-to-pay-dev-sandbox' }))).toBe('click-to-pay-dev-sandbox');
  });

  it('wires the sandbox acquirer for sandbox merchants where set, and one that refuses every call where not', async () => {
    const kinds = async (m: any) => ({
      sandbox: (await m.authorizers.for({ environment: 'sandbox' })).constructor.name,
      defined: m.sandboxAuthorizer !== undefined,
    });
    expect(await load('../../lib/composition/acquirers.js', kinds, { SANDBOX_TABLE: 'click-to-pay-dev-sandbox', PRODUCTION_ACQUIRER: undefined })).toEqual({
      sandbox: 'SandboxAuthorizer',
      defined: true,
    });
    expect(await load('../../lib/composition/acquirers.js', kinds, { SANDBOX_TABLE: undefined, PRODUCTION_ACQUIRER: undefined })).toEqual({
      sandbox: 'UnconfiguredAuthorizer',
      defined: false,
    });
  });
});

describe('processor secrets at onboarding (PROCESSOR_SECRETS_PREFIX, PRODUCTION_ACQUIRER)', () => {
  const policy = (env: Record<string, string | undefined>) =>
    load('../../lib/composition/merchants.js', (m) => m.assertProcessorAllowed as (body: unknown) => void, { PROCESSOR_SECRETS_PREFIX: undefined, ...env });
  const adyen = (credentialsArn: string, notificationHmacKeyArn: string) => ({
    environment: 'production',
    processor: { name: 'adyen', account: 'ShopECOM', credentialsArn, notificationHmacKeyArn },
  });
  const inside = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:click-to-pay/prod/processors/shop-AbCdEf';
  const insideParameter = 'arn:aws:ssm:eu-west-1:123456789012:parameter/click-to-pay/prod/processors/shop-hmac';
  const outside = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:other-team/shop-AbCdEf';

  it('accepts only secrets under the prefix the payment roles may read, naming the field otherwise', async () => {
    const assert = await policy({ PROCESSOR_SECRETS_PREFIX: 'click-to-pay/prod/processors/' });
    expect(() => assert(adyen(inside, insideParameter))).not.toThrow();
    const refused = (() => {
      try {
        assert(adyen(outside, insideParameter));
      } catch (error) {
        return error as { errors: { path: string }[] };
      }
    })();
    expect(refused?.errors.map((e) => e.path)).toEqual(['processor.credentialsArn']);
  });

  it('without a prefix (tests, tools) any ARN passes', async () => {
    const assert = await policy({});
    expect(() => assert(adyen(outside, outside))).not.toThrow();
  });

  it('lets a production merchant name the sandbox acquirer only where PRODUCTION_ACQUIRER=sandbox', async () => {
    const body = { environment: 'production', processor: { name: 'sandbox' } };
    const refused = await policy({ PRODUCTION_ACQUIRER: undefined });
    expect(() => refused(body)).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST' }));
    const allowed = await policy({ PRODUCTION_ACQUIRER: 'sandbox' });
    expect(() => allowed(body)).not.toThrow();
  });
});
