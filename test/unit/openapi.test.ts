import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { routeTable } from '../../lib/http/routes.js';
import { buildOpenApi, OPENAPI_PATH } from '../../infra/openapi/generate.js';
import { NAMED_SCHEMAS, problemSchema } from '../../infra/openapi/components.js';
import { EXAMPLES, RETRYABLE_PROBLEM_EXAMPLE } from '../../infra/openapi/examples.js';

type Op = {
  operationId?: string;
  tags?: string[];
  requestBody?: { content: Record<string, { schema: { $ref?: string } }> };
  responses: Record<string, { content?: Record<string, { schema: { $ref?: string } }> }>;
};
const operations = () =>
  Object.entries(buildOpenApi().paths as Record<string, Record<string, Op>>).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ route: `${method.toUpperCase()} ${path}`, op })),
  );

describe('docs/openapi.json', () => {
  it('is what the schemas generate (run `npm run openapi` after changing them)', () => {
    const committed = JSON.parse(readFileSync(OPENAPI_PATH, 'utf8'));
    expect(committed).toEqual(JSON.parse(JSON.stringify(buildOpenApi())));
  });

  /** The JSON API: every route of the table under /config/ and /transactions/. */
  const apiRoutes = () =>
    routeTable().flatMap((entry) => entry.routes.filter((route) => /^(GET|PUT|POST) \/(config|transactions)\//.test(route)).map((route) => ({ entry, route })));

  it('documents every API route of the route table, named after its function (a second verb on a path: the verb appended)', () => {
    const paths = buildOpenApi().paths as Record<string, Record<string, { operationId: string }>>;
    expect(apiRoutes().length).toBeGreaterThan(25);
    for (const { entry, route } of apiRoutes()) {
      const [method, path] = route.split(' ') as [string, string];
      const op = paths[path]?.[method.toLowerCase()];
      expect(op, route).toBeDefined();
      const first = entry.routes.find((other) => other.endsWith(` ${path}`)) === route;
      expect(op!.operationId, route).toBe(first ? entry.name : `${entry.name}${method[0]}${method.slice(1).toLowerCase()}`);
    }
    expect(paths['/config/platform/configs/payment-methods']!.post!.operationId).toBe('putPlatformPaymentMethodsPost');
  });

  it('documents Idempotency-Key (with its 409 and 422) on exactly the routes whose table entry opts in', () => {
    const paths = buildOpenApi().paths as Record<string, Record<string, { parameters: { name: string }[]; responses: Record<string, unknown> }>>;
    const optingIn = apiRoutes().filter(({ entry }) => entry.idempotency === 'supported');
    expect(optingIn.length).toBeGreaterThan(15);
    for (const { entry, route } of apiRoutes()) {
      const optsIn = entry.idempotency === 'supported';
      const [method, path] = route.split(' ') as [string, string];
      const op = paths[path]![method.toLowerCase()]!;
      expect(
        op.parameters.some((p) => p.name === 'Idempotency-Key'),
        route,
      ).toBe(optsIn);
      if (optsIn) expect(Object.keys(op.responses), route).toEqual(expect.arrayContaining(['409', '422']));
    }
  });

  it('says a hosted-session token may call exactly the routes whose table entry allows it (SPEC §1)', () => {
    const paths = buildOpenApi().paths as Record<string, Record<string, { description: string }>>;
    const allowed = apiRoutes().filter(({ entry }) => entry.sessionTokens === 'allowed');
    expect(allowed.map(({ entry }) => entry.name).sort()).toEqual([
      'complete3ds',
      'createPayment',
      'getEncryptionKeys',
      'getMerchantConfig',
      'getOrder',
      'payClickToPay',
    ]);
    for (const { entry, route } of apiRoutes()) {
      const [method, path] = route.split(' ') as [string, string];
      const { description } = paths[path]![method.toLowerCase()]!;
      if (entry.sessionTokens === 'allowed') expect(description, route).toContain('A hosted-session token may call it');
      else expect(description, route).toContain('a hosted-session token gets 403 PERMISSION_DENIED');
    }
  });

  it('names, in each operation’s “Requires”, the permission the table makes the edge enforce', () => {
    const paths = buildOpenApi().paths as Record<string, Record<string, { description: string }>>;
    for (const { entry, route } of apiRoutes()) {
      const [method, path] = route.split(' ') as [string, string];
      const { description } = paths[path]![method.toLowerCase()]!;
      const access = entry.access!;
      if ('permission' in access) expect(description, route).toContain(access.permission);
      if (access.kind === 'platform' || access.kind === 'platformOrPermission') expect(description, route).toContain('platform token');
    }
  });

  it('documents the pages and the processor callback at their table routes, named after their functions', () => {
    const paths = buildOpenApi().paths as Record<string, Record<string, { operationId: string }>>;
    const documented = ['payLinkPage', 'threeDsNotification', 'threeDsMethodNotification', 'adyenNotifications'];
    for (const entry of routeTable().filter((e) => documented.includes(e.name))) {
      const [method, path] = entry.routes[0]!.split(' ') as [string, string];
      expect(paths[path]?.[method.toLowerCase()]?.operationId, entry.name).toBe(entry.name);
    }
  });

  it('gives every operation a unique operationId and one declared tag (what client generators name things by)', () => {
    const doc = buildOpenApi() as { tags: { name: string }[] };
    const declared = doc.tags.map((tag) => tag.name);
    const ids = operations().map(({ route, op }) => {
      expect(op.operationId, route).toMatch(/^[a-z][A-Za-z0-9]+$/);
      expect(op.tags, route).toHaveLength(1);
      expect(declared, route).toContain(op.tags![0]);
      return op.operationId;
    });
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('names the shared schemas in components/schemas and refers to them by $ref', () => {
    const schemas = (buildOpenApi().components as { schemas: Record<string, { properties?: Record<string, unknown> }> }).schemas;
    for (const name of ['Payment', 'Order', 'Problem', 'HostedSession', 'MerchantConfig', 'PaymentMethods', 'WebhookConfig', 'Event']) {
      expect(schemas[name], name).toBeDefined();
    }
    // An order's payments are Payments, not a copy of them.
    expect(schemas.Order!.properties!.payments).toEqual({ type: 'array', items: { $ref: '#/components/schemas/Payment' } });
    const byRoute = Object.fromEntries(operations().map(({ route, op }) => [route, op]));
    const order = byRoute['POST /transactions/outlets/{outletId}/orders']!;
    expect(order.requestBody!.content['application/json']!.schema).toEqual({ $ref: '#/components/schemas/CreateOrderRequest' });
    expect(order.responses['201']!.content!['application/json']!.schema).toEqual({ $ref: '#/components/schemas/CreatedOrder' });
    // No operation inlines a schema that has a name.
    const text = JSON.stringify(buildOpenApi().paths);
    for (const ref of text.match(/"\$ref":"[^"]+"/g) ?? []) {
      expect(ref).toMatch(/#\/components\/(schemas|responses)\/\w+/);
    }
  });

  it('lists every error code of lib/core/errors.ts and lib/http/errors.ts as the enum of Problem.code', () => {
    const source = ['../../lib/core/errors.ts', '../../lib/http/errors.ts']
      .map((file) => readFileSync(fileURLToPath(new URL(file, import.meta.url)), 'utf8'))
      .join('\n');
    const codes = [...source.matchAll(/readonly code = '([A-Z_]+)'/g)].map(([, code]) => code);
    expect(codes.length).toBeGreaterThan(20);
    const schemas = (buildOpenApi().components as { schemas: Record<string, { properties: Record<string, { enum?: string[] }> }> }).schemas;
    expect([...schemas.Problem!.properties.code!.enum!].sort()).toEqual([...new Set(codes)].sort());
    expect(problemSchema.safeParse({ ...RETRYABLE_PROBLEM_EXAMPLE, code: 'NOT_A_CODE' }).success).toBe(false);
  });

  it('has examples that the schemas accept (request bodies and main responses)', () => {
    for (const name of ['CreateOrderRequest', 'Order', 'Payment', 'ClickToPayRequest', 'HostedSession', 'Problem', 'MerchantConfig'] as const) {
      expect(EXAMPLES[name], name).toBeDefined();
    }
    for (const [name, example] of Object.entries(EXAMPLES)) {
      const result = NAMED_SCHEMAS[name as keyof typeof NAMED_SCHEMAS].safeParse(example);
      expect(result.error?.issues, name).toBeUndefined();
    }
    expect(problemSchema.safeParse(RETRYABLE_PROBLEM_EXAMPLE).success).toBe(true);
    const byRoute = Object.fromEntries(
      operations().map(({ route, op }) => [route, op as unknown as { responses: Record<string, { content: Record<string, { example?: unknown }> }> }]),
    );
    expect(byRoute['GET /transactions/outlets/{outletId}/orders/{orderRef}']!.responses['200']!.content['application/json']!.example).toEqual(EXAMPLES.Order);
  });

  it('has one server whose base URL is a variable defaulting to the local service', () => {
    expect(buildOpenApi().servers).toEqual([
      expect.objectContaining({ url: '{baseUrl}', variables: { baseUrl: expect.objectContaining({ default: 'http://localhost:3000' }) } }),
    ]);
  });
});
