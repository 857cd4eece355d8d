import { beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { handler as createOrder } from '../../functions/create-order/handler.js';
import { handler as getOrder } from '../../functions/get-order/handler.js';
import { handler as fallback } from '../../functions/fallback/handler.js';
import { authenticator } from '../../lib/composition/core.js';
import { apiHandler } from '../../lib/http/api-handler.js';
import { DependencyUnavailableError } from '../../lib/core/errors.js';
import { invoke } from '../support/invoke.js';
import { seedMerchant, type SeededMerchant } from '../support/seed.js';
import { platformToken } from '../support/tokens.js';

let token: string;
let seeded: SeededMerchant;
const validOrder = { action: 'AUTH', amount: { currencyCode: 'AED', value: 1000 } };
const post = (body: unknown, extra: Record<string, unknown> = {}) =>
  invoke(createOrder, {
    method: 'POST',
    path: `/transactions/outlets/${seeded.outletId}/orders`,
    pathParameters: { outletId: seeded.outletId },
    token,
    body,
    ...extra,
  });

beforeAll(async () => {
  token = await platformToken();
  seeded = await seedMerchant();
});

describe('bad input never reaches a 500', () => {
  it.each([
    ['truncated JSON', '{"action":"AUTH",'],
    ['not JSON at all', 'action=AUTH'],
    ['JSON null', 'null'],
    ['JSON array', '[1,2]'],
    ['JSON string', '"AUTH"'],
    ['deeply nested', '['.repeat(5000) + ']'.repeat(5000)],
  ])('%s → 400 problem', async (_name, raw) => {
    const response = await post(raw);
    expect(response.status).toBe(400);
    expect(response.headers['Content-Type']).toBe('application/problem+json');
    expect(response.body.code).toBe('INVALID_REQUEST');
  });

  it('a body over 64 KiB → 413', async () => {
    const response = await post({ ...validOrder, merchantOrderReference: 'x'.repeat(70_000) });
    expect(response.status).toBe(413);
    expect(response.body.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('a body of exactly 64 KiB is not rejected for its size', async () => {
    const base = JSON.stringify({ ...validOrder, merchantOrderReference: '' });
    const padded = base.replace('"merchantOrderReference":""', `"merchantOrderReference":"${'y'.repeat(65536 - base.length)}"`);
    expect(Buffer.byteLength(padded)).toBe(65536);
    const response = await post(padded);
    expect(response.status).toBe(400); // too long a reference, but not 413
  });

  it.each([
    ['text/plain', 'text/plain'],
    ['form', 'application/x-www-form-urlencoded'],
    ['missing', null],
  ])('content type %s → 415', async (_name, contentType) => {
    const response = await post(JSON.stringify(validOrder), { contentType });
    expect(response.status).toBe(415);
    expect(response.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('accepts application/json with a charset and a base64-encoded body', async () => {
    expect((await post(validOrder, { contentType: 'application/json; charset=utf-8' })).status).toBe(201);
  });

  it.each(['a/b', '..', 'x y', 'ünïcode', "o'; DROP TABLE", '%00', 'a'.repeat(65), ''])('path value %j → 400, never 500', async (outletId) => {
    const response = await invoke(getOrder, {
      path: `/transactions/outlets/x/orders/y`,
      pathParameters: { outletId, orderRef: 'r-1' },
      token,
    });
    expect(response.status).toBe(400);
    expect(response.body.errors[0].path).toBe('path.outletId');
  });

  it('wrong types inside the body list every offending field', async () => {
    const response = await post({ action: 1, amount: { currencyCode: 5, value: 'ten' } });
    expect(response.status).toBe(400);
    const paths = response.body.errors.map((e: { path: string }) => e.path).sort();
    expect(paths).toEqual(['action', 'amount.currencyCode', 'amount.value']);
  });
});

describe('error mapping', () => {
  const failing = (error: unknown) =>
    apiHandler({ routes: ['GET /boom'], access: { kind: 'any' } }, { authenticator, query: z.object({}) }, async () => {
      throw error;
    });

  it('an unexpected TypeError is a generic 500 that leaks nothing', async () => {
    const secret = 'TypeError: cannot read 4895370012003478 of undefined at /var/task/secret.js';
    const response = await invoke(failing(new TypeError(secret)), { token });
    expect(response.status).toBe(500);
    expect(response.body).toMatchObject({ code: 'INTERNAL_ERROR', detail: 'An unexpected error occurred.' });
    expect(response.raw).not.toContain('4895370012003478');
    expect(response.raw).not.toContain('secret.js');
    expect(response.raw).not.toContain('TypeError');
  });

  it('a dependency outage is a 503 with Retry-After', async () => {
    const response = await invoke(failing(new DependencyUnavailableError(undefined, { cause: new Error('ECONNREFUSED 10.0.0.1') })), { token });
    expect(response.status).toBe(503);
    expect(response.headers['Retry-After']).toBe('1');
    expect(response.raw).not.toContain('ECONNREFUSED');
  });

  it('every response carries the request id, no-store and nosniff', async () => {
    for (const response of [await post(validOrder), await post('{')]) {
      expect(response.headers['X-Request-Id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(response.headers['Cache-Control']).toBe('no-store');
      expect(response.headers['X-Content-Type-Options']).toBe('nosniff');
    }
  });
});

describe('fallback route', () => {
  it('a known path with the wrong method → 405 with Allow', async () => {
    const response = await invoke(fallback, { method: 'DELETE', path: '/config/platform/configs/payment-methods' });
    expect(response.status).toBe(405);
    expect(response.body.code).toBe('METHOD_NOT_ALLOWED');
    expect(response.headers.Allow).toBe('GET, PUT, POST');
  });

  it('an unknown path → 404 problem', async () => {
    const response = await invoke(fallback, { method: 'GET', path: '/nope' });
    expect(response.status).toBe(404);
    expect(response.headers['Content-Type']).toBe('application/problem+json');
  });
});
