import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * docs/openapi.json must be good enough to generate a typed client from: openapi-typescript
 * generates the types into a temporary directory, and tsc type-checks a merchant's calls
 * (test/fixtures/openapi-client/) against them — create an order, pay with Click to Pay, read
 * the order, narrow a Problem's code — plus a file with a deliberate type error, which must fail.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const fixtures = join(root, 'test/fixtures/openapi-client');
let dir: string;

function tsc(file: string) {
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        lib: ['ES2023', 'DOM'],
        strict: true,
        noUncheckedIndexedAccess: true,
        noEmit: true,
        skipLibCheck: false,
        types: [],
      },
      files: [file],
    }),
  );
  return spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json'), '--pretty', 'false'], {
    cwd: dir,
    encoding: 'utf8',
  });
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'openapi-client-'));
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  const generated = spawnSync(
    process.execPath,
    [join(root, 'node_modules/openapi-typescript/bin/cli.js'), join(root, 'docs/openapi.json'), '-o', join(dir, 'api.d.ts')],
    { encoding: 'utf8' },
  );
  expect(generated.status, generated.stderr).toBe(0);
  for (const file of ['client-usage.ts', 'client-type-error.ts']) copyFileSync(join(fixtures, file), join(dir, file));
}, 60_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('a typed client generated from docs/openapi.json', () => {
  it('names the shared schemas and the operations', () => {
    const types = readFileSync(join(dir, 'api.d.ts'), 'utf8');
    for (const name of ['Payment', 'Order', 'Problem', 'HostedSession', 'MerchantConfig']) expect(types).toMatch(new RegExp(`\\n\\s+${name}: \\{`));
    expect(types).toContain('createOrder: {');
    expect(types).toContain('payClickToPay: {');
  });

  it('type-checks creating an order, paying with Click to Pay, reading it and narrowing Problem codes (and rejects the mistakes marked @ts-expect-error)', () => {
    const result = tsc('client-usage.ts');
    expect(result.stdout + result.stderr, 'tsc output').toBe('');
    expect(result.status).toBe(0);
  }, 60_000);

  it('fails on a deliberate type error, at its line', () => {
    const result = tsc('client-type-error.ts');
    expect(result.status).not.toBe(0);
    const line =
      readFileSync(join(fixtures, 'client-type-error.ts'), 'utf8')
        .split('\n')
        .findIndex((text) => text.includes('TYPE ERROR HERE')) + 1;
    expect(result.stdout).toMatch(new RegExp(`client-type-error\\.ts\\(${line},\\d+\\): error TS2322`));
    expect(result.stdout.match(/error TS/g)).toHaveLength(1);
  }, 60_000);
});
