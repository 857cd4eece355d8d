import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import table from '../../lib/http/routes.json' with { type: 'json' };

/**
 * SPEC 4.13: every POST that creates or changes something takes an Idempotency-Key. The sandbox
 * network and ACS are the card network's and the issuer's stand-ins, not the service's API.
 */
describe('Idempotency-Key coverage', () => {
  it('every POST route outside /sandbox/ is built with idempotentApiHandler and opts in', () => {
    // The 3DS notification URLs (CRes, 3DS Method completion) are the ACS's form POSTs in the shopper's browser: they read and
    // change nothing (they render a hand-over page), so there is nothing to make idempotent.
    const RENDERS_ONLY = new Set(['POST /checkout/3ds-notification', 'POST /checkout/3ds-method-notification']);
    const posts = table.functions.filter((fn) =>
      fn.routes.some((route) => route.startsWith('POST ') && !route.startsWith('POST /sandbox/') && !RENDERS_ONLY.has(route)),
    );
    expect(posts.length).toBeGreaterThan(10);
    for (const fn of posts) {
      const source = readFileSync(new URL(`../../functions/${fn.dir}/handler.ts`, import.meta.url), 'utf8');
      expect(source, fn.name).toMatch(/idempotentApiHandler\(/);
      expect(source, fn.name).toMatch(/idempotency:\s*'supported'/);
    }
  });
});
