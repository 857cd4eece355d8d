import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { cruise, type IConfiguration } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';
import { tracked } from '../support/tracked-files.js';

/**
 * The walls of the house (README "Layers"), checked with the project's own dependency-cruiser
 * rules (.dependency-cruiser.cjs) on every `npm test`: lib/core imports nothing outward, only
 * lib/composition imports adapters, the edge never builds its collaborators, no import circles.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const config = createRequire(import.meta.url)('../../.dependency-cruiser.cjs') as IConfiguration;

async function violations(paths: string[], baseDir: string) {
  const { output } = await cruise(paths, {
    baseDir,
    ruleSet: config,
    validate: true,
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    outputType: 'json',
  });
  const result = typeof output === 'string' ? JSON.parse(output) : output;
  return (result.summary.violations as { rule: { name: string }; from: string; to: string }[]).map(({ rule, from, to }) => `${rule.name}: ${from} → ${to}`);
}

describe('layers', () => {
  it('the service keeps every wall: no violation, no circle', { timeout: 120_000 }, async () => {
    expect(await violations(['lib', 'functions'], root)).toEqual([]);
  });

  it('a deliberately wrong tree is refused, rule by rule (the check can fail)', { timeout: 60_000 }, async () => {
    const found = await violations(['lib'], fileURLToPath(new URL('./fixtures/wrong-layers', import.meta.url)));
    expect(found).toEqual(
      expect.arrayContaining([
        'core-imports-outward: lib/core/use-case.ts → lib/adapters/store.ts',
        'only-composition-imports-adapters: lib/core/use-case.ts → lib/adapters/store.ts',
        'edge-imports-adapters-or-composition: lib/http/edge.ts → lib/composition/wiring.ts',
        expect.stringMatching(/^no-circular: lib\/core\/circle-[ab]\.ts → lib\/core\/circle-[ab]\.ts$/),
      ]),
    );
  });

  it('lib/core reads no environment and speaks no HTTP (statuses and headers are the edge’s)', () => {
    const core = tracked().filter((file) => file.startsWith('lib/core/') && file.endsWith('.ts'));
    expect(core.length).toBeGreaterThan(50);
    for (const file of core) {
      const code = readFileSync(`${root}/${file}`, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, ''); // comments may name them
      expect(code, file).not.toMatch(/process\.env|statusCode|['"](Retry-After|WWW-Authenticate|Content-Type)['"]|\bstatus: [1-5]\d\d\b/);
    }
  });
});
