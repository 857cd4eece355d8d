/**
 * What infra/local/build-web.ts makes of esbuild's output: the manifest the checkout-page
 * function serves from (lib/http/checkout-page/web-manifest.ts), the page shell, and sizes.
 */
import { readFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Metafile } from 'esbuild';
import { BOOTSTRAP_MARKER, CHECKOUT_ASSETS_PATH, type WebManifest } from '../../lib/http/checkout-page/web-manifest.js';

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

export function manifestOf(metafiles: Metafile[], rootDir: string, entry: string): WebManifest {
  const files: WebManifest['files'] = {};
  let script = '';
  const styles: string[] = [];
  const preload = new Set<string>();
  for (const metafile of metafiles) {
    for (const [output, meta] of Object.entries(metafile.outputs)) {
      const name = basename(output);
      const extension = name.slice(name.lastIndexOf('.'));
      files[name] = { contentType: CONTENT_TYPES[extension] ?? 'application/octet-stream', bytes: meta.bytes };
      if (meta.entryPoint && resolve(rootDir, meta.entryPoint) === entry) {
        script = name;
        if (meta.cssBundle) styles.push(basename(meta.cssBundle));
        staticImports(metafile, output, preload);
      } else if (meta.entryPoint && extension === '.css') {
        styles.push(name);
      }
    }
  }
  if (!script) throw new Error('build:web: esbuild produced no entry script');
  return { script, styles, preload: [...preload], files };
}

/** The chunks an output needs before it runs (import statements, transitively); dynamic imports stay lazy. */
function staticImports(metafile: Metafile, output: string, into: Set<string>): void {
  for (const imported of metafile.outputs[output]?.imports ?? []) {
    if (imported.kind !== 'import-statement' || imported.external) continue;
    const key = Object.keys(metafile.outputs).find((candidate) => basename(candidate) === basename(imported.path));
    if (key && !into.has(basename(key))) {
      into.add(basename(key));
      staticImports(metafile, key, into);
    }
  }
}

/** The page shell. The bootstrap is JSON in a non-executed script element (allowed by the CSP). */
export function pageShell(manifest: WebManifest): string {
  const asset = (file: string) => `${CHECKOUT_ASSETS_PATH}/${file}`;
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    '<title>Checkout</title>',
    // No favicon request (and no 404 in the console); `img-src data:` in the CSP allows it.
    '<link rel="icon" href="data:,">',
    ...manifest.styles.map((file) => `<link rel="stylesheet" href="${asset(file)}">`),
    ...manifest.preload.map((file) => `<link rel="modulepreload" href="${asset(file)}">`),
    `<script type="module" src="${asset(manifest.script)}"></script>`,
    '</head>',
    '<body>',
    '<div id="app"></div>',
    '<noscript>This checkout needs JavaScript.</noscript>',
    `<script type="application/json" id="bootstrap">${BOOTSTRAP_MARKER}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

export async function sizes(outDir: string, files: string[]): Promise<{ bytes: number; gzipBytes: number }> {
  let bytes = 0;
  let gzipBytes = 0;
  for (const file of files) {
    const content = await readFile(join(outDir, 'assets', file));
    bytes += content.byteLength;
    gzipBytes += gzipSync(content, { level: 9 }).byteLength;
  }
  return { bytes, gzipBytes };
}
