import type { LookupAddress } from 'node:dns';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { assertSafeWebhookUrl, guardedLookup, parseWebhookUrl, UnsafeWebhookUrlError, type LookupAll } from '../../lib/adapters/webhooks/url-guard.js';

/** SPEC §4.15 URL rule: https; http only to a loopback host for sandbox merchants; never a forbidden address. */
const SANDBOX = { allowLoopback: true };
const PRODUCTION = { allowLoopback: false };

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UnsafeWebhookUrlError);
    return (error as UnsafeWebhookUrlError).reason;
  }
  return 'accepted';
}
async function asyncRefusal(run: () => Promise<unknown>): Promise<{ reason: string; message: string }> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(UnsafeWebhookUrlError);
    return { reason: (error as UnsafeWebhookUrlError).reason, message: (error as Error).message };
  }
  return { reason: 'accepted', message: '' };
}
const answers =
  (...addresses: string[]): LookupAll =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

describe('parseWebhookUrl', () => {
  it.each([
    ['https://hooks.example.com/c2p?x=1', PRODUCTION],
    ['HTTPS://Hooks.Example.com:8443/a', PRODUCTION],
    ['https://8.8.8.8/hook', PRODUCTION],
    ['https://[2606:4700:4700::1111]/hook', PRODUCTION],
    ['https://xn--e28h.example/', PRODUCTION],
    ['http://localhost:3000/hook', SANDBOX],
    ['http://LOCALHOST./hook', SANDBOX],
    ['http://shop.localhost:3000/hook', SANDBOX],
    ['http://127.0.0.1:8080/hook', SANDBOX],
    ['http://127.8.9.10/hook', SANDBOX],
    ['http://[::1]:8080/hook', SANDBOX],
    ['http://[::ffff:127.0.0.1]/hook', SANDBOX],
    ['https://localhost/hook', SANDBOX],
  ])('accepts %s', (raw, options) => {
    expect(parseWebhookUrl(raw, options)).toBeInstanceOf(URL);
  });

  it.each([
    ['http://hooks.example.com/', PRODUCTION, 'scheme'],
    ['http://hooks.example.com/', SANDBOX, 'scheme'], // http to a non-loopback host, even for sandbox
    ['http://8.8.8.8/', SANDBOX, 'scheme'],
    ['http://localhost.example.com/', SANDBOX, 'scheme'],
    ['ftp://hooks.example.com/', PRODUCTION, 'scheme'],
    ['file:///etc/passwd', SANDBOX, 'scheme'],
    ['javascript:alert(1)', PRODUCTION, 'invalid'],
    ['ws://hooks.example.com/', PRODUCTION, 'scheme'],
    ['http://localhost:3000/', PRODUCTION, 'loopback'], // localhost refused without allowLoopback
    ['https://localhost/', PRODUCTION, 'loopback'],
    ['https://api.localhost./', PRODUCTION, 'loopback'],
    ['http://127.0.0.1:3000/', PRODUCTION, 'loopback'],
    ['https://[::1]/', PRODUCTION, 'loopback'],
    ['https://user@hooks.example.com/', PRODUCTION, 'credentials'],
    ['https://user:secret@hooks.example.com/', PRODUCTION, 'credentials'],
    ['https://:secret@hooks.example.com/', PRODUCTION, 'credentials'],
    ['http://user:pw@localhost/', SANDBOX, 'credentials'],
    ['https://hooks.example.com/#section', PRODUCTION, 'fragment'],
    ['https://hooks.example.com/#', PRODUCTION, 'fragment'],
    ['hooks.example.com/hook', PRODUCTION, 'invalid'],
    ['/relative/hook', PRODUCTION, 'invalid'],
    ['https:hooks.example.com', PRODUCTION, 'invalid'],
    ['https:\\\\hooks.example.com', PRODUCTION, 'invalid'],
    [' https://hooks.example.com/', PRODUCTION, 'invalid'],
    ['https://hooks.example.com/\n', PRODUCTION, 'invalid'],
    ['https://hooks.exa\tmple.com/', PRODUCTION, 'invalid'],
    ['https://', PRODUCTION, 'invalid'],
    ['', PRODUCTION, 'invalid'],
    ['https://exa mple.com/', PRODUCTION, 'invalid'],
  ])('refuses %j (allowLoopback %o) as %s', (raw, options, reason) => {
    expect(refusal(() => parseWebhookUrl(raw, options))).toBe(reason);
  });

  it.each([
    // The WHATWG parser turns these into dotted IPv4 before the host is classified.
    ['https://2130706433/', 'loopback'],
    ['https://0x7f.1/', 'loopback'],
    ['https://0x7f000001/', 'loopback'],
    ['https://0177.0.0.1/', 'loopback'],
    ['https://127.1/', 'loopback'],
    ['https://127.0.0.1./', 'loopback'],
    ['https://%31%32%37.0.0.1/', 'loopback'],
    ['https://167772161/', 'private'], // 10.0.0.1
    ['https://0xa9fea9fe/', 'metadata'], // 169.254.169.254
    ['https://169.254.169.254/latest/meta-data/', 'metadata'],
    ['https://[::ffff:169.254.169.254]/', 'metadata'],
    ['https://[::ffff:a9fe:a9fe]/', 'metadata'],
    ['https://[fd00:ec2::254]/', 'metadata'],
    ['https://0/', 'unspecified'],
    ['https://[::]/', 'unspecified'],
    ['https://192.168.1.10/', 'private'],
    ['https://[fe80::1]/', 'link-local'],
    ['https://[2001:db8::1]/', 'reserved'],
    ['https://224.0.0.1/', 'multicast'],
  ])('classifies the IP-literal host of %s as %s', (raw, reason) => {
    expect(refusal(() => parseWebhookUrl(raw, PRODUCTION))).toBe(reason);
    if (reason !== 'loopback') expect(refusal(() => parseWebhookUrl(raw, SANDBOX))).toBe(reason);
  });

  it('refuses a forbidden address before the scheme, even over http for sandbox', () => {
    expect(refusal(() => parseWebhookUrl('http://10.0.0.1/', SANDBOX))).toBe('private');
    expect(refusal(() => parseWebhookUrl('http://0xa9fea9fe/', SANDBOX))).toBe('metadata');
  });

  it('accepts decimal/hex loopback literals for sandbox and hands back the normalised URL', () => {
    expect(parseWebhookUrl('http://2130706433:8080/hook', SANDBOX).href).toBe('http://127.0.0.1:8080/hook');
    expect(parseWebhookUrl('http://0x7f.1/hook', SANDBOX).hostname).toBe('127.0.0.1');
  });

  it('allows 2048 characters and no more, also after normalisation', () => {
    const base = 'https://hooks.example.com/';
    expect(parseWebhookUrl(base + 'a'.repeat(2048 - base.length), PRODUCTION).href).toHaveLength(2048);
    expect(refusal(() => parseWebhookUrl(base + 'a'.repeat(2049 - base.length), PRODUCTION))).toBe('too-long');
    expect(refusal(() => parseWebhookUrl(base + 'é'.repeat(1000), PRODUCTION))).toBe('too-long'); // 6 characters each once percent-encoded
  });

  it('gives merchant-safe messages', () => {
    expect(() => parseWebhookUrl('http://hooks.example.com/', PRODUCTION)).toThrow('The webhook URL must use https.');
    expect(() => parseWebhookUrl('http://hooks.example.com/', SANDBOX)).toThrow(/http only for a loopback host/);
    expect(() => parseWebhookUrl('https://169.254.169.254/', PRODUCTION)).toThrow(/cloud metadata address/);
    expect(() => parseWebhookUrl('https://u:hunter2@hooks.example.com/', PRODUCTION)).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('hunter2') }),
    );
  });
});

describe('assertSafeWebhookUrl', () => {
  afterEach(() => vi.useRealTimers());

  it('accepts a host whose every address is public, and looks up the URL’s host name', async () => {
    const lookup = vi.fn(answers('93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'));
    const url = await assertSafeWebhookUrl('https://hooks.example.com/c2p', { ...PRODUCTION, lookup });
    expect(url.href).toBe('https://hooks.example.com/c2p');
    expect(lookup).toHaveBeenCalledWith('hooks.example.com');
  });

  it('refuses a host with one public and one private address', async () => {
    const result = await asyncRefusal(() =>
      assertSafeWebhookUrl('https://hooks.example.com/', { ...PRODUCTION, lookup: answers('93.184.215.14', '10.1.2.3') }),
    );
    expect(result).toEqual({ reason: 'private', message: 'The webhook URL’s host resolves to a private network address, which cannot receive webhooks.' });
  });

  it.each([
    ['169.254.169.254', 'metadata'],
    ['::ffff:10.0.0.1', 'private'],
    ['fd00:ec2::254', 'metadata'],
    ['127.0.0.1', 'loopback'],
    ['0.0.0.0', 'unspecified'],
  ])('refuses a name resolving to %s (%s)', async (address, reason) => {
    expect((await asyncRefusal(() => assertSafeWebhookUrl('https://metadata.example/', { ...PRODUCTION, lookup: answers('8.8.8.8', address) }))).reason).toBe(
      reason,
    );
  });

  it('lets sandbox reach loopback names, and http only if every address is loopback', async () => {
    await expect(assertSafeWebhookUrl('http://shop.localhost:3000/', { ...SANDBOX, lookup: answers('127.0.0.1', '::1') })).resolves.toBeInstanceOf(URL);
    await expect(assertSafeWebhookUrl('https://dev.example.com/', { ...SANDBOX, lookup: answers('127.0.0.1') })).resolves.toBeInstanceOf(URL);
    expect((await asyncRefusal(() => assertSafeWebhookUrl('http://shop.localhost/', { ...SANDBOX, lookup: answers('127.0.0.1', '8.8.8.8') }))).reason).toBe(
      'scheme',
    );
    expect((await asyncRefusal(() => assertSafeWebhookUrl('http://shop.localhost/', { ...SANDBOX, lookup: answers('192.168.0.2') }))).reason).toBe('private');
  });

  it('does not look up IP-literal hosts (already classified)', async () => {
    const lookup = vi.fn(answers('10.0.0.1'));
    await expect(assertSafeWebhookUrl('https://8.8.8.8/', { ...PRODUCTION, lookup })).resolves.toBeInstanceOf(URL);
    expect(lookup).not.toHaveBeenCalled();
  });

  it.each([
    ['fails with ENOTFOUND', () => Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND x 10.9.9.9'), { code: 'ENOTFOUND' }))],
    ['answers nothing', async () => []],
    ['throws something odd', () => Promise.reject(new Error('boom'))],
  ])('refuses a name whose lookup %s, with a message that names no resolver detail', async (_, lookup) => {
    const result = await asyncRefusal(() => assertSafeWebhookUrl('https://nowhere.example/', { ...PRODUCTION, lookup: lookup as LookupAll }));
    expect(result).toEqual({ reason: 'dns', message: 'The webhook URL’s host name could not be resolved.' });
  });

  it('gives up on a lookup that does not answer within 3 s', async () => {
    vi.useFakeTimers();
    const pending = asyncRefusal(() => assertSafeWebhookUrl('https://slow.example/', { ...PRODUCTION, lookup: () => new Promise(() => {}) }));
    await vi.advanceTimersByTimeAsync(2_999);
    let settled = false;
    void pending.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await pending).reason).toBe('dns');
  });

  it('uses the system resolver by default', async () => {
    expect((await asyncRefusal(() => assertSafeWebhookUrl('https://no-such-host.invalid/', PRODUCTION))).reason).toBe('dns');
    expect((await asyncRefusal(() => assertSafeWebhookUrl('https://localhost/', SANDBOX))).reason).toBe('accepted');
  });
});

describe('guardedLookup', () => {
  type Answer = { error: NodeJS.ErrnoException | null; address: string | LookupAddress[]; family?: number };
  const call = (lookup: ReturnType<typeof guardedLookup>, options: object): Promise<Answer> =>
    new Promise((resolve) => lookup('hooks.example.com', options, (error, address, family) => resolve({ error, address, family })));

  it('answers one address, all of them, or those of the family asked for', async () => {
    const lookup = guardedLookup({ ...PRODUCTION, lookup: answers('2606:4700::1', '93.184.215.14') });
    expect(await call(lookup, {})).toEqual({ error: null, address: '2606:4700::1', family: 6 });
    expect(await call(lookup, { all: true })).toMatchObject({
      error: null,
      address: [
        { address: '2606:4700::1', family: 6 },
        { address: '93.184.215.14', family: 4 },
      ],
    });
    expect(await call(lookup, { family: 4 })).toEqual({ error: null, address: '93.184.215.14', family: 4 });
    expect(await call(lookup, { family: 'IPv6', all: true })).toMatchObject({ address: [{ address: '2606:4700::1' }] });
    expect((await call(guardedLookup({ ...PRODUCTION, lookup: answers('93.184.215.14') }), { family: 6 })).error?.code).toBe('ENOTFOUND');
  });

  it('fails the whole host with EBLOCKEDADDRESS when any address is forbidden, whatever the family asked for', async () => {
    const lookup = guardedLookup({ ...PRODUCTION, lookup: answers('93.184.215.14', 'fd00:ec2::254') });
    for (const options of [{}, { all: true }, { family: 4 }]) {
      const { error } = await call(lookup, options);
      expect(error).toMatchObject({ code: 'EBLOCKEDADDRESS', reason: 'metadata' });
      expect(error?.message).not.toContain('fd00');
    }
  });

  it('allows loopback only when told, and only loopback when loopbackOnly (http)', async () => {
    expect((await call(guardedLookup({ ...PRODUCTION, lookup: answers('127.0.0.1') }), {})).error?.code).toBe('EBLOCKEDADDRESS');
    expect((await call(guardedLookup({ ...SANDBOX, lookup: answers('127.0.0.1') }), {})).address).toBe('127.0.0.1');
    expect((await call(guardedLookup({ ...SANDBOX, loopbackOnly: true, lookup: answers('8.8.8.8') }), {})).error).toMatchObject({
      code: 'EBLOCKEDADDRESS',
      reason: 'scheme',
    });
  });

  it('passes a resolution failure on with its code', async () => {
    const lookup = guardedLookup({ ...PRODUCTION, lookup: () => Promise.reject(Object.assign(new Error('x'), { code: 'EAI_AGAIN' })) });
    expect((await call(lookup, {})).error?.code).toBe('EAI_AGAIN');
  });
});
