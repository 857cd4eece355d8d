import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS, type World } from '../support/endpoints.js';
import { checkoutResponse } from '../support/checkout.js';
import { invoke, type InvokeOptions, type InvokeResult } from '../support/invoke.js';
import { seedWorld } from '../support/seed.js';
import { platformToken } from '../support/tokens.js';
import { DPA, enrollment, newSession } from '../sandbox/src-client.js';

/**
 * Issue 7, "input hygiene": whatever JSON arrives, no endpoint answers 5xx, and any body that
 * is not a JSON object is a 400 INVALID_REQUEST (the sandbox network: reason INVALID_REQUEST),
 * with a valid platform token, before any use case runs. Bounded: RUNS per endpoint.
 */
const RUNS = 60;

type Handler = (event: any, context: any) => Promise<unknown>;
interface Fixture {
  world: World;
  srcSessionId: string;
  checkoutResponse: unknown;
  enrollment: Record<string, unknown>;
}
interface Target {
  name: string;
  load: () => Promise<{ handler: Handler }>;
  request: (fixture: Fixture) => InvokeOptions;
  /** A body the endpoint accepts (mutations start from it); undefined when it takes none. */
  valid: (fixture: Fixture) => Record<string, unknown> | undefined;
  sandbox?: true;
}

const paymentPath = ({ world: w }: Fixture) => ({
  path: `/transactions/outlets/${w.outletId}/orders/${w.orderRef}/payments/${w.paymentRef}`,
  pathParameters: { outletId: w.outletId, orderRef: w.orderRef, paymentRef: w.paymentRef },
});

/** SRC operation → a body it accepts. The session never looks up a known consumer, so no shared OTP budget is spent. */
const SRC_BODIES: Record<string, (f: Fixture) => Record<string, unknown>> = {
  init: () => DPA,
  'identity-lookup': (f) => ({ sessionId: f.srcSessionId, identity: { type: 'EMAIL', value: 'nobody-arbitrary@example.com' } }),
  'otp/resend': (f) => ({ sessionId: f.srcSessionId }),
  'otp/validate': (f) => ({ sessionId: f.srcSessionId, otp: '123456' }),
  cards: (f) => ({ sessionId: f.srcSessionId }),
  'cards/enroll': (f) => ({ sessionId: f.srcSessionId, ...f.enrollment }),
  checkout: (f) => ({
    sessionId: f.srcSessionId,
    srcDigitalCardId: 'visa-classic',
    dpaId: DPA.dpaId,
    transactionAmount: { transactionAmount: 10, transactionCurrencyCode: 'AED' },
  }),
  'sign-out': (f) => ({ sessionId: f.srcSessionId }),
};

/** The service's endpoints (issue 2's table plus the payments) and the sandbox network's routes. */
const TARGETS: Target[] = [
  ...ENDPOINTS.map(
    (endpoint): Target => ({
      name: endpoint.name,
      load: endpoint.load,
      request: (f) => ({ ...endpoint.request(f.world), body: undefined }),
      valid: (f) => endpoint.request(f.world).body as Record<string, unknown> | undefined,
    }),
  ),
  {
    name: '4.3 POST click-to-pay',
    load: () => import('../../functions/pay-click-to-pay/handler.js'),
    request: (f) => ({ method: 'POST', ...paymentPath(f), path: `${paymentPath(f).path}/click-to-pay` }),
    valid: (f) => ({ checkoutResponse: f.checkoutResponse }),
  },
  {
    name: '4.4 POST direct',
    load: () => import('../../functions/pay-direct/handler.js'),
    request: (f) => ({ method: 'POST', ...paymentPath(f), path: `${paymentPath(f).path}/click-to-pay/direct` }),
    valid: () => ({
      token: { paymentToken: '4895370012003478', tokenExpirationMonth: '12', tokenExpirationYear: '2029' },
      dynamicData: { dynamicDataValue: 'AgAAAAAABk4DWZ4C28yUQAAAAAA=' },
      eci: '05',
    }),
  },
  {
    name: '4.10 POST 3ds',
    load: () => import('../../functions/complete-3ds/handler.js'),
    request: (f) => ({ method: 'POST', ...paymentPath(f), path: `${paymentPath(f).path}/3ds` }),
    valid: () => ({
      cres: Buffer.from(
        JSON.stringify({ messageType: 'CRes', threeDSServerTransID: crypto.randomUUID(), acsTransID: crypto.randomUUID(), transStatus: 'Y' }),
      ).toString('base64url'),
    }),
  },
  ...Object.entries(SRC_BODIES).map(
    ([operation, valid]): Target => ({
      name: `sandbox SRC POST /${operation}`,
      load: () => import('../../functions/sandbox-src/handler.js'),
      // Its own caller address: the sessions it opens count against no other test's client limit.
      request: () => ({ method: 'POST', path: `/sandbox/src/${operation}`, sourceIp: '192.0.2.77' }),
      valid,
      sandbox: true,
    }),
  ),
];

let fixture: Fixture;
let token: string;

beforeAll(async () => {
  const world = await seedWorld({}, { directWallet: true });
  token = await platformToken();
  fixture = { world, srcSessionId: await newSession(), checkoutResponse: await checkoutResponse(), enrollment: await enrollment() };
});

/** Texts that are JSON but not an object, as the issue lists them, plus overflowing numbers. */
const NON_OBJECTS = ['false', '0', 'null', '[]', '"x"', '1e309', '-1e400', 'true', '-0', '[{}]', '""', '123456789012345678901234567890'];

/** JSON paths of a value: where a mutation can strike. */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== 'object') return [prefix];
  const keys: (string | number)[] = Array.isArray(value) ? value.map((_, index) => index) : Object.keys(value);
  return [prefix, ...keys.flatMap((key) => paths((value as Record<string | number, unknown>)[key], [...prefix, key]))];
}

function mutate(valid: unknown, path: (string | number)[], kind: 'replace' | 'delete' | 'wrap', replacement: unknown): unknown {
  if (path.length === 0) return kind === 'wrap' ? [valid] : kind === 'delete' ? {} : replacement;
  const copy = structuredClone(valid) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (kind === 'delete') {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete parent[last];
  } else parent[last] = kind === 'wrap' ? [parent[last]] : replacement;
  return copy;
}

/** Raw body texts: arbitrary JSON, the non-object list, and one-point mutations of the valid body. */
function bodies(valid: Record<string, unknown> | undefined): fc.Arbitrary<string> {
  const source = valid ?? {};
  const mutated = fc
    .tuple(fc.constantFrom(...paths(source)), fc.constantFrom('replace' as const, 'delete' as const, 'wrap' as const), fc.jsonValue({ maxDepth: 3 }))
    .map(([path, kind, replacement]) => JSON.stringify(mutate(source, path, kind, replacement)) ?? 'null');
  return fc.oneof(
    fc.json({ maxDepth: 3 }),
    fc.constantFrom(...NON_OBJECTS),
    mutated,
    fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.stringify({ ...source, extra: value })),
  );
}

const isObject = (text: string): boolean => {
  const value: unknown = JSON.parse(text);
  return typeof value === 'object' && value !== null && !Array.isArray(value);
};

function expectInvalidRequest(target: Target, response: InvokeResult, what: string): void {
  expect(response.status, `${target.name} ${what}: ${response.raw.slice(0, 200)}`).toBe(400);
  if (target.sandbox) expect(response.body.error.reason).toBe('INVALID_REQUEST');
  else expect([response.body.code, response.headers['Content-Type']]).toEqual(['INVALID_REQUEST', 'application/problem+json']);
}

describe('bodies that are not a JSON object', () => {
  it.each(TARGETS)('are 400 INVALID_REQUEST on $name, as text and as serverless-offline hands over false and 0', async (target) => {
    const { handler } = await target.load();
    const request = target.request(fixture);
    for (const text of NON_OBJECTS) {
      expectInvalidRequest(target, await invoke(handler, { ...request, token, body: text }), text);
    }
    for (const value of [false, 0, true, 1]) {
      expectInvalidRequest(target, await invoke(handler, { ...request, token, rawEventBody: value }), `raw ${String(value)}`);
    }
  });
});

describe('arbitrary JSON bodies (fast-check)', () => {
  it.each(TARGETS)('$name never answers 5xx', async (target) => {
    const { handler } = await target.load();
    const request = target.request(fixture);
    await fc.assert(
      fc.asyncProperty(bodies(target.valid(fixture)), async (text) => {
        const response = await invoke(handler, { ...request, token, body: text });
        expect(response.status, `${target.name} ← ${text.slice(0, 300)}: ${response.raw.slice(0, 200)}`).toBeLessThan(500);
        if (!isObject(text)) expectInvalidRequest(target, response, text.slice(0, 100));
      }),
      { numRuns: RUNS },
    );
  });
});
