import { createPublicKey, publicEncrypt, constants } from 'node:crypto';
import { calculateJwkThumbprint } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getMerchantConfig } from '../../functions/get-merchant-config/handler.js';
import { handler as putMerchantConfig } from '../../functions/put-merchant-config/handler.js';
import { handler as getKeys } from '../../functions/get-encryption-keys/handler.js';
import { payloadKeyVault } from '../../lib/composition/keys.js';
import { configRepository } from '../../lib/composition/core.js';
import { invoke } from '../support/invoke.js';
import { seedMerchant, uniqueRef, type SeededMerchant } from '../support/seed.js';
import { platformToken, tenantToken } from '../support/tokens.js';

let token: string;
let seeded: SeededMerchant;

const onboarding = (tenantRef: string, outlets: string[], extra: Record<string, unknown> = {}) => ({
  tenantRef,
  dpaId: 'a1b2c3d4-dpa',
  dpaClientId: 'client-123',
  dpaName: 'Example Store',
  cardBrands: ['visa'],
  outlets,
  ...extra,
});
const put = (merchantRef: string, body: unknown, bearer = token) =>
  invoke(putMerchantConfig, {
    method: 'PUT',
    path: `/config/merchants/${merchantRef}/configs/vctp`,
    pathParameters: { merchantRef },
    token: bearer,
    body,
  });
const get = (merchantRef: string, bearer = token) =>
  invoke(getMerchantConfig, { path: `/config/merchants/${merchantRef}/configs/vctp`, pathParameters: { merchantRef }, token: bearer });

beforeAll(async () => {
  token = await platformToken();
  seeded = await seedMerchant();
});

describe('4.7 PUT merchant config (onboarding)', () => {
  it('creates a merchant with defaults and answers the 4.1 body', async () => {
    const merchantRef = uniqueRef('m');
    const outletId = uniqueRef('o');
    const response = await put(merchantRef, onboarding(seeded.tenantRef, [outletId]));
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      merchantRef,
      tenantRef: seeded.tenantRef,
      dpaId: 'a1b2c3d4-dpa',
      dpaClientId: 'client-123',
      dpaName: 'Example Store',
      cardBrands: ['visa'],
      locale: 'en_US',
      environment: 'sandbox',
      encryptionKeyId: await payloadKeyVault.currentKid(),
      clickToPayEnabled: true,
      directWalletEnabled: false,
      threeDsPolicy: 'risk-based',
      outlets: [outletId],
      redirectOrigins: [],
    });
    expect(await configRepository.getOutlet(outletId)).toEqual({ outletId, merchantRef, tenantRef: seeded.tenantRef });
  });

  it('replaces the configuration and releases outlets no longer listed', async () => {
    const merchantRef = uniqueRef('m');
    const [a, b] = [uniqueRef('o'), uniqueRef('o')];
    await put(merchantRef, onboarding(seeded.tenantRef, [a, b]));
    const response = await put(merchantRef, onboarding(seeded.tenantRef, [b], { threeDsPolicy: 'always', locale: 'ar_AE' }));
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ threeDsPolicy: 'always', locale: 'ar_AE' });
    expect(await configRepository.getOutlet(a)).toBeUndefined();
    expect(await configRepository.getOutlet(b)).toMatchObject({ merchantRef });
  });

  it('refuses an outlet owned by another merchant (409) and leaves it with its owner', async () => {
    const response = await put(uniqueRef('m'), onboarding(seeded.tenantRef, [seeded.outletId]));
    expect(response.status).toBe(409);
    expect(response.body.code).toBe('ONBOARDING_CONFLICT');
    expect(await configRepository.getOutlet(seeded.outletId)).toMatchObject({ merchantRef: seeded.merchantRef });
  });

  it('refuses to move a merchant to another tenant (409)', async () => {
    const response = await put(seeded.merchantRef, onboarding(uniqueRef('t'), [seeded.outletId]));
    expect(response.status).toBe(409);
  });

  it.each([
    ['missing dpaId', { dpaId: undefined }],
    ['empty card brands', { cardBrands: [] }],
    ['unknown card brand', { cardBrands: ['visa', 'diners-club-x'] }],
    ['duplicate brand', { cardBrands: ['visa', 'visa'] }],
    ['bad locale', { locale: 'english' }],
    ['bad environment', { environment: 'staging' }],
    ['bad 3DS policy', { threeDsPolicy: 'sometimes' }],
    ['unknown field', { secret: 'x' }],
    ['outlet with a slash', { outlets: ['a/b'] }],
    ['wrong type', { dpaName: 42 }],
  ])('rejects %s with 400 and a field path', async (_name, patch) => {
    const body = { ...onboarding(seeded.tenantRef, [uniqueRef('o')]), ...patch };
    const response = await put(uniqueRef('m'), JSON.parse(JSON.stringify(body)));
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('INVALID_REQUEST');
    expect(response.body.errors.length).toBeGreaterThan(0);
  });
});

describe('GET-modify-PUT: the 4.1 body goes back to 4.7 as it is', () => {
  it('GET answers every field PUT needs (outlets too); the same body with one change PUT back changes just that', async () => {
    const merchantRef = uniqueRef('m');
    const outlets = [uniqueRef('o'), uniqueRef('o')];
    await put(merchantRef, onboarding(seeded.tenantRef, outlets, { redirectOrigins: ['https://shop.example.com'] }));
    const before = await get(merchantRef);
    expect(before.body.outlets).toEqual(outlets);
    const body = { ...before.body, redirectOrigins: [...before.body.redirectOrigins, 'https://admin.example.com'] };
    const after = await put(merchantRef, body);
    expect(after.status, JSON.stringify(after.body)).toBe(200);
    expect(after.body).toEqual({ ...before.body, redirectOrigins: ['https://shop.example.com', 'https://admin.example.com'] });
    expect((await get(merchantRef)).body).toEqual(after.body);
  });

  it('the read-only fields set nothing: enablement and the key id stay what they are', async () => {
    const merchantRef = uniqueRef('m');
    const created = await put(merchantRef, onboarding(seeded.tenantRef, [uniqueRef('o')]));
    const sent = { ...created.body, clickToPayEnabled: !created.body.clickToPayEnabled, directWalletEnabled: true, encryptionKeyId: 'not-a-key' };
    const response = await put(merchantRef, sent);
    expect(response.status).toBe(200);
    expect(response.body).toEqual(created.body);
  });

  it('a body naming another merchant than the path is a 400 naming merchantRef, and changes nothing', async () => {
    const merchantRef = uniqueRef('m');
    const created = await put(merchantRef, onboarding(seeded.tenantRef, [uniqueRef('o')]));
    const response = await put(merchantRef, { ...created.body, merchantRef: seeded.merchantRef, dpaName: 'Changed' });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('INVALID_REQUEST');
    expect(response.body.errors).toEqual([expect.objectContaining({ path: 'merchantRef' })]);
    expect((await get(merchantRef)).body.dpaName).toBe('Example Store');
  });
});

describe('4.1 GET merchant config', () => {
  it('returns the configuration for a token scoped to the merchant', async () => {
    const response = await get(seeded.merchantRef, await tenantToken({ tenantRef: seeded.tenantRef, merchantRef: seeded.merchantRef, permissions: [] }));
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ merchantRef: seeded.merchantRef, dpaName: 'Demo Shop', cardBrands: ['visa', 'mastercard'], locale: 'en_AE' });
    expect(response.headers['Cache-Control']).toBe('no-store');
  });

  it('answers 404 for an unknown merchant', async () => {
    const response = await get(uniqueRef('m'));
    expect(response.status).toBe(404);
    expect(response.headers['Content-Type']).toBe('application/problem+json');
    expect(response.body).toMatchObject({ type: 'about:blank', status: 404, title: 'Not Found', code: 'NOT_FOUND' });
    expect(response.body.requestId).toBeTruthy();
    expect(response.body.errors).toBeUndefined();
  });
});

describe('4.2 GET encryption keys', () => {
  it('serves the KMS public key as a JWKS with an RFC 7638 thumbprint kid, cacheable', async () => {
    const response = await invoke(getKeys, { path: '/config/configs/vctp/encryption-keys', token });
    expect(response.status).toBe(200);
    expect(response.headers['Cache-Control']).toBe('max-age=300');
    const [key] = response.body.keys;
    expect(response.body.encryptionKeyId).toBe(key.kid);
    expect(key).toMatchObject({ kty: 'RSA', use: 'enc', alg: 'RSA-OAEP-256', e: 'AQAB', status: 'current' });
    expect(key.d).toBeUndefined();
    expect(key.kid).toBe(await calculateJwkThumbprint({ kty: 'RSA', n: key.n, e: key.e }));
    expect(Buffer.from(key.n, 'base64url').length).toBeGreaterThanOrEqual(256);
  });

  it('serves a key that the KMS private key can actually decrypt for', async () => {
    const response = await invoke(getKeys, { path: '/config/configs/vctp/encryption-keys', token });
    const publicKey = createPublicKey({ key: response.body.keys[0], format: 'jwk' });
    const secret = Buffer.from('0123456789abcdef0123456789abcdef');
    const wrapped = publicEncrypt({ key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, secret);
    const unwrapped = await payloadKeyVault.unwrap(response.body.encryptionKeyId, 'RSA-OAEP-256', wrapped);
    expect(Buffer.from(unwrapped)).toEqual(secret);
  });

  it('rejects query parameters it does not know', async () => {
    const response = await invoke(getKeys, { path: '/config/configs/vctp/encryption-keys', token, query: { kid: 'x' } });
    expect(response.status).toBe(400);
  });
});
