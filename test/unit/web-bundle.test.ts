import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildWeb } from '../../infra/local/build-web.js';

/**
 * The page's API types are inferred from the server's zod schemas (web/src/api.ts), by type
 * only: zod and lib/ must never reach the browser (size, and server code in a public bundle).
 */
const WEB_SRC = join(process.cwd(), 'web', 'src');
let dir: string | undefined;

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('hosted page bundle', () => {
  it('imports zod and lib/ by type only', async () => {
    const names = (await readdir(WEB_SRC, { recursive: true })).filter((name) => /\.tsx?$/.test(name));
    let typeImports = 0;
    for (const name of names) {
      const text = await readFile(join(WEB_SRC, name), 'utf8');
      for (const [statement] of text.matchAll(/^(?:import|export)\b[^;]*?from\s+['"]([^'"]+)['"]/gms)) {
        const source = /from\s+['"]([^'"]+)['"]/.exec(statement)![1]!;
        if (source !== 'zod' && !/(^|\/)lib\//.test(source)) continue;
        expect(statement, `${name}: ${statement}`).toMatch(/^(?:import|export) type\b/);
        typeImports += 1;
      }
    }
    expect(typeImports).toBeGreaterThan(0);
  });

  it('the built JS holds no zod', async () => {
    dir = await mkdtemp(join(tmpdir(), 'ctp-web-bundle-'));
    const web = await buildWeb({ outDir: join(dir, 'dist'), log: () => {} });
    const scripts = Object.keys(web.manifest.files).filter((file) => file.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    for (const file of scripts) {
      const js = await readFile(join(web.outDir, 'assets', file), 'utf8');
      // zod's class names survive minification (they are string literals in its constructors).
      expect(js, file).not.toMatch(/ZodError|ZodObject|\$ZodType/);
    }
  });
});
