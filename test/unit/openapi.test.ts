import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import table from '../../lib/http/routes.json' with { type: 'json' };
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

  it('documents every API route of lib/http/routes.json', () => {
    const paths = buildOpenApi().paths as Record<string, Record<string, unknown>>;
    const apiRoutes = table.functions.flatMap((fn) => fn.routes).filter((route) => /^(GET|PUT|POST) \/(config|transactions)\//.test(route));
    for (const route of apiRoutes) {
      const [method, path] = route.split(' ') as [string, string];
      expect(paths[path]?.[method.toLowerCase()], route).toBeDefined();
    }
  });

  it('documents Idempotency-Key (with its 409 and 422) on exactly the routes whose handler opts in', () => {
    const paths = buildOpenApi().paths as Record<string, Record<string, { parameters: { name: string }[]; responses: Record<string, unknown> }>>;
    const root = fileURLToPath(new URL('../..', import.meta.url));
    for (const fn of table.functions) {
      const optsIn = /idempotency:\s*'supported'/.test(readFileSync(join(root, 'functions', fn.dir, 'handler.ts'), 'utf8'));
      for (const route of fn.routes.filter((r) => /^(GET|PUT|POST) \/(config|transactions)\//.test(r))) {
        const [method, path] = route.split(' ') as [string, string];
        const op = paths[path]![method.toLowerCase()]!;
        expect(
          op.parameters.some((p) => p.name === 'Idempotency-Key'),
          route,
        ).toBe(optsIn);
        if (optsIn) expect(Object.keys(op.responses), route).toEqual(expect.arrayContaining(['409', '422']));
      }
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
