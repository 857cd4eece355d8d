import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import table from '../../functions/routes.json' with { type: 'json' };
import { buildOpenApi, OPENAPI_PATH } from '../../infra/openapi/generate.js';

describe('docs/openapi.json', () => {
  it('is what the schemas generate (run `npm run openapi` after changing them)', () => {
    const committed = JSON.parse(readFileSync(OPENAPI_PATH, 'utf8'));
    expect(committed).toEqual(JSON.parse(JSON.stringify(buildOpenApi())));
  });

  it('documents every API route of functions/routes.json', () => {
    const paths = buildOpenApi().paths as Record<string, Record<string, unknown>>;
    const apiRoutes = table.functions
      .flatMap((fn) => fn.routes)
      .filter((route) => /^(GET|PUT|POST) \/(config|transactions)\//.test(route));
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
        expect(op.parameters.some((p) => p.name === 'Idempotency-Key'), route).toBe(optsIn);
        if (optsIn) expect(Object.keys(op.responses), route).toEqual(expect.arrayContaining(['409', '422']));
      }
    }
  });
});
