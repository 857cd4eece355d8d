import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { handler as getHandler } from '../../functions/get-webhook-config/handler.js';
import { handler as putHandler } from '../../functions/put-webhook-config/handler.js';
import { handler as rotateHandler } from '../../functions/rotate-webhook-secret/handler.js';
import { documentClient } from '../../lib/composition/aws.js';
import { webhookConfigDeps } from '../../lib/composition/webhook-secrets.js';
import { problemResource } from '../../lib/http/resource-schemas.js';
import { webhookConfigPutResource, webhookConfigResource, webhookSecretRotationResource } from '../../lib/http/webhook-resource-schemas.js';
import { signingSecrets } from '../../lib/core/webhooks/webhook-config.js';
import { invoke, type InvokeResult } from '../support/invoke.js';
import { seedMerchant, seedWorld, uniqueRef } from '../support/seed.js';
import { sessionTokenFor } from '../support/sessions.js';
import { ALL_PERMISSIONS, platformToken, tenantToken } from '../support/tokens.js';
import { isStandardWebhooksSecret, standardWebhooksSignature } from './support.js';
import { idempotencyRecords } from '../support/idempotency.js';

/** SPEC 4.15 configuration endpoints, called as API Gateway would, over the local stack. */
// Log everything (debug included) so the no-secret-in-logs check covers every line we write.
vi.hoisted(() => {
  process.env.LOG_LEVEL = 'debug';
});

const logLines: string[] = [];
const originalWrite = process.stdout.write.bind(process.stdout);
/** Every secret an answer showed: none may appear at rest or in a log. */
const shown: string[] = [];

const path = (merchantRef: string) => `/config/merchants/${merchantRef}/configs/webhooks`;
const remember = (response: InvokeResult) => {
  if (typeof response.body?.signingSecret === 'string') shown.push(response.body.signingSecret);
  return response;
};
const put = async (merchantRef: string, body: unknown, token?: string, extra: Record<string, unknown> = {}) =>
  remember(await invoke(putHandler, { method: 'PUT', path: path(merchantRef), pathParameters: { merchantRef }, token, body, ...extra }));
const get = (merchantRef: string, token?: string) => invoke(getHandler, { method: 'GET', path: path(merchantRef), pathParameters: { merchantRef }, token });
const rotate = async (merchantRef: string, token?: string, body?: unknown, extra: Record<string, unknown> = {}) =>
  remember(await invoke(rotateHandler, { method: 'POST', path: `${path(merchantRef)}/rotate-secret`, pathParameters: { merchantRef }, token, body, ...extra }));

const SANDBOX_HOOK = 'http://127.0.0.1:8080/webhooks';
let platform: string;

beforeAll(async () => {
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    logLines.push(String(chunk));
    return originalWrite(chunk as string, ...(rest as []));
  }) as typeof process.stdout.write;
  platform = await platformToken();
});

afterAll(() => {
  process.stdout.write = originalWrite;
});

function expectProblem(response: InvokeResult, status: number, code: string) {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.headers['Content-Type']).toBe('application/problem+json');
  expect(problemResource.parse(response.body).code).toBe(code);
}

describe('4.15 access: platform, or MANAGE_WEBHOOKS with the merchant in scope', () => {
  let world: Awaited<ReturnType<typeof seedWorld>>;
  let sibling: string;
  let otherTenant: string;
  const endpoints = {
    PUT: (merchantRef: string, token: string) => put(merchantRef, { url: SANDBOX_HOOK }, token),
    GET: (merchantRef: string, token: string) => get(merchantRef, token),
    'POST rotate-secret': (merchantRef: string, token: string) => rotate(merchantRef, token),
  };

  beforeAll(async () => {
    world = await seedWorld();
    sibling = (await seedMerchant({ tenantRef: world.tenantRef })).merchantRef;
    otherTenant = (await seedMerchant()).tenantRef;
    // Both merchants configured, so that a 404 below can only come from the scope check.
    for (const merchantRef of [world.merchantRef, sibling]) expect((await put(merchantRef, { url: SANDBOX_HOOK }, platform)).status).toBe(200);
  });

  for (const [name, call] of Object.entries(endpoints)) {
    describe(name, () => {
      it('a platform token may, with or without permissions', async () => {
        expect((await call(world.merchantRef, platform)).status).toBe(200);
        expect((await call(world.merchantRef, await platformToken([]))).status).toBe(200);
      });

      it('a tenant token with MANAGE_WEBHOOKS may, also narrowed to this merchant', async () => {
        expect((await call(world.merchantRef, await tenantToken({ tenantRef: world.tenantRef, permissions: ['MANAGE_WEBHOOKS'] }))).status).toBe(200);
        const narrowed = await tenantToken({ tenantRef: world.tenantRef, merchantRef: world.merchantRef, permissions: ['MANAGE_WEBHOOKS'] });
        expect((await call(world.merchantRef, narrowed)).status).toBe(200);
        // Narrowed to every outlet of the merchant, a token covers the whole merchant (SPEC §1, 4.15).
        const outlets = await tenantToken({ tenantRef: world.tenantRef, outletIds: [world.outletId, world.otherOutletId], permissions: ['MANAGE_WEBHOOKS'] });
        expect((await call(world.merchantRef, outlets)).status).toBe(200);
      });

      it('a token narrowed to some of the merchant’s outlets → 404, like a merchant that does not exist', async () => {
        for (const outletIds of [[world.outletId], [world.otherOutletId], [world.otherOutletId, 'some-other-outlet']]) {
          const narrowed = await tenantToken({ tenantRef: world.tenantRef, outletIds, permissions: ['MANAGE_WEBHOOKS'] });
          expectProblem(await call(world.merchantRef, narrowed), 404, 'NOT_FOUND');
        }
      });

      it('a tenant token without MANAGE_WEBHOOKS → 403 PERMISSION_DENIED', async () => {
        const others = ALL_PERMISSIONS.filter((p) => p !== 'MANAGE_WEBHOOKS');
        expectProblem(await call(world.merchantRef, await tenantToken({ tenantRef: world.tenantRef, permissions: others })), 403, 'PERMISSION_DENIED');
      });

      it('another tenant’s merchant, an unknown merchant, another merchant than the token’s → 404', async () => {
        expectProblem(await call(world.merchantRef, await tenantToken({ tenantRef: otherTenant, permissions: ['MANAGE_WEBHOOKS'] })), 404, 'NOT_FOUND');
        expectProblem(await call(uniqueRef('m'), platform), 404, 'NOT_FOUND');
        const narrowed = await tenantToken({ tenantRef: world.tenantRef, merchantRef: world.merchantRef, permissions: ['MANAGE_WEBHOOKS'] });
        expectProblem(await call(sibling, narrowed), 404, 'NOT_FOUND');
        const outlets = await tenantToken({ tenantRef: world.tenantRef, outletIds: ['some-other-outlet', world.outletId], permissions: ['MANAGE_WEBHOOKS'] });
        expectProblem(await call(sibling, outlets), 404, 'NOT_FOUND');
      });

      it('a hosted-session token → 403 PERMISSION_DENIED; no token → 401', async () => {
        expectProblem(await call(world.merchantRef, await sessionTokenFor(world)), 403, 'PERMISSION_DENIED');
        const anonymous =
          name === 'PUT'
            ? await put(world.merchantRef, { url: SANDBOX_HOOK })
            : name === 'GET'
              ? await get(world.merchantRef)
              : await rotate(world.merchantRef);
        expectProblem(anonymous, 401, 'UNAUTHENTICATED');
      });
    });
  }
});

describe('4.15 the signing secret is shown once', () => {
  it('the first PUT creates it (Standard Webhooks whsec_), later PUTs keep it and never show it', async () => {
    const { merchantRef } = await seedMerchant();
    const first = await put(merchantRef, { url: SANDBOX_HOOK }, platform);
    expect(first.status).toBe(200);
    const created = webhookConfigPutResource.parse(first.body);
    expect(created).toEqual({ url: SANDBOX_HOOK, enabled: true, signingSecret: expect.any(String) });
    expect(isStandardWebhooksSecret(created.signingSecret)).toBe(true);

    // What the delivery worker will sign with is exactly what the merchant was shown.
    const stored = await signingSecrets(webhookConfigDeps, merchantRef, Date.now());
    expect(stored).toEqual({ url: SANDBOX_HOOK, enabled: true, allowLoopback: true, secrets: [created.signingSecret] });
    const body = '{"type":"payment.authorised"}';
    expect(standardWebhooksSignature(stored!.secrets[0]!, 'msg_1', 1700000000, body)).toBe(
      standardWebhooksSignature(created.signingSecret!, 'msg_1', 1700000000, body),
    );

    const again = await put(merchantRef, { url: 'http://localhost:9999/other', enabled: false }, platform);
    expect(again.status).toBe(200);
    expect(webhookConfigPutResource.parse(again.body)).toEqual({ url: 'http://localhost:9999/other', enabled: false });
    expect((await signingSecrets(webhookConfigDeps, merchantRef, Date.now()))!.secrets).toEqual([created.signingSecret]);
  });

  it('GET reads URL, state and times, never a secret; 404 while none is configured', async () => {
    const { merchantRef } = await seedMerchant();
    expectProblem(await get(merchantRef, platform), 404, 'NOT_FOUND');
    expectProblem(await rotate(merchantRef, platform), 404, 'NOT_FOUND');
    const { signingSecret } = (await put(merchantRef, { url: SANDBOX_HOOK, enabled: false }, platform)).body;
    const read = await get(merchantRef, platform);
    expect(read.status).toBe(200);
    const view = webhookConfigResource.parse(read.body);
    expect(view).toEqual({ url: SANDBOX_HOOK, enabled: false, createdAt: view.createdAt, updatedAt: view.updatedAt });
    expect(read.raw).not.toContain(signingSecret.slice('whsec_'.length));
    expect(read.raw).not.toMatch(/whsec_|sealed|secrets/);

    const rotated = await rotate(merchantRef, platform);
    expect(rotated.status).toBe(200);
    const { signingSecret: next, previousSecretExpiresAt } = webhookSecretRotationResource.parse(rotated.body);
    expect(isStandardWebhooksSecret(next)).toBe(true);
    expect(next).not.toBe(signingSecret);
    expect(Math.abs(Date.parse(previousSecretExpiresAt) - (Date.now() + 24 * 3600_000))).toBeLessThan(60_000);
    const after = await get(merchantRef, platform);
    expect(webhookConfigResource.parse(after.body).secretRotatedAt).toEqual(expect.any(String));
    expect(after.raw).not.toMatch(/whsec_/);
    expect((await signingSecrets(webhookConfigDeps, merchantRef, Date.now()))!.secrets).toEqual([next, signingSecret]);
  });
});

describe('4.15 URL safety', () => {
  const refused = async (merchantRef: string, url: string) => {
    const response = await put(merchantRef, { url }, platform);
    expectProblem(response, 400, 'INVALID_REQUEST');
    expect(response.body.errors).toEqual([{ path: 'url', message: expect.any(String) }]);
  };

  it('refuses http to a public host, private and metadata addresses, and loopback for a production merchant', async () => {
    const production = (await seedMerchant({ environment: 'production' })).merchantRef;
    const sandbox = (await seedMerchant()).merchantRef;
    for (const merchantRef of [production, sandbox]) {
      await refused(merchantRef, 'http://93.184.216.34/webhooks');
      await refused(merchantRef, 'https://10.0.0.1/webhooks');
      await refused(merchantRef, 'https://192.168.1.10/webhooks');
      await refused(merchantRef, 'https://169.254.169.254/latest/meta-data');
      await refused(merchantRef, 'ftp://93.184.216.34/webhooks');
      await refused(merchantRef, 'not a url');
    }
    await refused(production, 'http://127.0.0.1:8080/webhooks');
    await refused(production, 'https://127.0.0.1/webhooks');
    await refused(production, 'https://[::1]/webhooks');
    // Nothing was stored by a refused PUT.
    expectProblem(await get(production, platform), 404, 'NOT_FOUND');
    expectProblem(await get(sandbox, platform), 404, 'NOT_FOUND');
  });

  it('allows loopback http for a sandbox merchant, and a refused change leaves the configuration as it was', async () => {
    const { merchantRef } = await seedMerchant();
    expect((await put(merchantRef, { url: 'http://127.0.0.1:4000/hooks' }, platform)).status).toBe(200);
    await refused(merchantRef, 'https://10.1.2.3/hooks');
    expect((await get(merchantRef, platform)).body.url).toBe('http://127.0.0.1:4000/hooks');
  });
});

describe('4.15 bad requests', () => {
  let merchantRef: string;
  beforeAll(async () => {
    merchantRef = (await seedMerchant()).merchantRef;
  });

  it.each([
    ['no url', {}, 'url'],
    ['url not a string', { url: 5 }, 'url'],
    ['empty url', { url: '' }, 'url'],
    ['url over 2048 characters', { url: `http://127.0.0.1/${'a'.repeat(2040)}` }, 'url'],
    ['enabled not a boolean', { url: SANDBOX_HOOK, enabled: 'yes' }, 'enabled'],
    ['an unknown field', { url: SANDBOX_HOOK, signingSecret: 'whsec_x' }, ''],
  ])('PUT with %s → 400 naming the field', async (_name, body, field) => {
    const response = await put(merchantRef, body, platform);
    expectProblem(response, 400, 'INVALID_REQUEST');
    expect(response.body.errors.map((e: { path: string }) => e.path)).toContain(field);
  });

  it('PUT without a body, with malformed JSON or another media type; rotate with a body', async () => {
    expectProblem(
      await invoke(putHandler, { method: 'PUT', path: path(merchantRef), pathParameters: { merchantRef }, token: platform }),
      400,
      'INVALID_REQUEST',
    );
    expectProblem(await put(merchantRef, '{"url":', platform), 400, 'INVALID_REQUEST');
    expectProblem(await put(merchantRef, [SANDBOX_HOOK], platform), 400, 'INVALID_REQUEST');
    expectProblem(await put(merchantRef, JSON.stringify({ url: SANDBOX_HOOK }), platform, { contentType: 'text/plain' }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    expectProblem(await rotate(merchantRef, platform, { rotate: true }), 400, 'INVALID_REQUEST');
    expectProblem(await put('bad ref', { url: SANDBOX_HOOK }, platform), 400, 'INVALID_REQUEST');
  });
});

// Last: covers every secret the tests above were shown.
describe('4.15 rotate-secret with an Idempotency-Key (SPEC 4.13)', () => {
  it('a retried rotation answers the same new secret (Idempotent-Replayed) and rotates once; the stored answer holds no secret', async () => {
    const { merchantRef } = await seedMerchant();
    const created = await put(merchantRef, { url: SANDBOX_HOOK }, platform);
    const headers = { 'idempotency-key': `rotate-${Math.random()}` };
    const first = await rotate(merchantRef, platform, undefined, { headers });
    const again = await rotate(merchantRef, platform, undefined, { headers });
    expect(first.status).toBe(200);
    expect(again.headers['Idempotent-Replayed']).toBe('true');
    expect(again.body.signingSecret).toBe(first.body.signingSecret);
    expect((await signingSecrets(webhookConfigDeps, merchantRef, Date.now()))!.secrets).toEqual([first.body.signingSecret, created.body.signingSecret]);
    const records = JSON.stringify(await idempotencyRecords());
    for (const secret of [first.body.signingSecret as string]) {
      expect(records).not.toContain(secret.slice('whsec_'.length));
    }
  });
});

describe('no signing secret at rest or in logs', () => {
  it('showed secrets', () => {
    expect(shown.length).toBeGreaterThanOrEqual(8);
  });

  it('no Config table item holds one: only KMS-sealed blobs', async () => {
    const { Items = [] } = await documentClient.send(new ScanCommand({ TableName: process.env.CONFIG_TABLE }));
    const webhooks = Items.filter((item) => item.sk === 'WEBHOOK');
    expect(webhooks.length).toBeGreaterThanOrEqual(5);
    for (const item of webhooks) expect(item.secrets[0].sealed).toMatch(/^[A-Za-z0-9+/]+=*$/);
    const dump = JSON.stringify(Items);
    expect(dump).not.toContain('whsec_');
    for (const secret of shown) {
      expect(dump).not.toContain(secret.slice('whsec_'.length));
      expect(dump).not.toContain(Buffer.from(secret.slice('whsec_'.length), 'base64').toString('hex'));
    }
  });

  it('no log line holds one', () => {
    expect(logLines.some((line) => line.includes('"request completed"'))).toBe(true);
    for (const line of logLines) {
      expect(line).not.toContain('whsec_');
      for (const secret of shown) expect(line).not.toContain(secret.slice('whsec_'.length));
    }
  });
});
