import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Keep the two worlds apart (docs/integrating/three-ds.md): what plays the network, the ACS or the
 * acquirer lives in lib/adapters/sandbox/ and is wired in lib/composition/ only. No other module of lib/
 * imports it — the use cases take ports (ThreeDsServer, Authorizer) and never know which.
 */
const LIB = fileURLToPath(new URL('../../lib', import.meta.url));
const WIRING = ['adapters/sandbox', 'composition'];
const inWiring = (file: string) => WIRING.some((dir) => relative(LIB, file).startsWith(`${dir}/`));
const isSandbox = (path: string) => path.startsWith('adapters/sandbox/');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every module specifier of a file: static imports and re-exports, and dynamic import(). */
function specifiers(source: string): string[] {
  return [...source.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g)].map((match) => match[1]!);
}

describe('the use cases import no lib/adapters/sandbox', () => {
  const files = sources(LIB).filter((file) => !inWiring(file));

  it('scans the use cases (lib/core/payments among them)', () => {
    expect(files.some((file) => file.endsWith('/core/payments/complete-three-ds.ts'))).toBe(true);
    expect(files.some((file) => file.endsWith('/core/ports/three-ds-server.ts'))).toBe(true);
    expect(files.some((file) => file.includes('/adapters/sandbox/'))).toBe(false);
  });

  it('finds an import of lib/adapters/sandbox nowhere outside it and lib/composition', () => {
    const offenders = files.flatMap((file) =>
      specifiers(readFileSync(file, 'utf8'))
        .filter((specifier) => specifier.startsWith('.') && isSandbox(relative(LIB, join(file, '..', specifier))))
        .map((specifier) => `${relative(LIB, file)} → ${specifier}`),
    );
    expect(offenders).toEqual([]);
  });

  it('would catch one (the scanner itself)', () => {
    expect(specifiers("import { x } from '../sandbox/sandbox-three-ds.js';\nexport { y } from './a.js';\nawait import('../sandbox/b.js');")).toEqual([
      '../sandbox/sandbox-three-ds.js',
      './a.js',
      '../sandbox/b.js',
    ]);
  });
});
