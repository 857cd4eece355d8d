import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Keep the two worlds apart (docs/integrating/three-ds.md): what plays the network, the ACS or the
 * acquirer lives in lib/sandbox/ and is wired in lib/composition/ only. No other module of lib/
 * imports it — the use cases take ports (ThreeDsServer, Authorizer) and never know which.
 */
const LIB = fileURLToPath(new URL('../../lib', import.meta.url));
const WIRING = ['sandbox', 'composition'];

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

describe('the use cases import no lib/sandbox', () => {
  const files = sources(LIB).filter((file) => !WIRING.includes(relative(LIB, file).split('/')[0]!));

  it('scans the use cases (lib/payments among them)', () => {
    expect(files.some((file) => file.endsWith('/payments/complete-three-ds.ts'))).toBe(true);
    expect(files.some((file) => file.endsWith('/payments/three-ds-server.ts'))).toBe(true);
    expect(files.some((file) => file.includes('/sandbox/'))).toBe(false);
  });

  it('finds an import of lib/sandbox nowhere outside lib/sandbox and lib/composition', () => {
    const offenders = files.flatMap((file) =>
      specifiers(readFileSync(file, 'utf8'))
        .filter((specifier) => specifier.startsWith('.') && relative(LIB, join(file, '..', specifier)).split('/')[0] === 'sandbox')
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
