import { readFileSync } from 'node:fs';
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
});
