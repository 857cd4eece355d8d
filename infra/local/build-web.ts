/**
 * `npm run build:web` (and `buildWeb()` from `npm start`): bundles the hosted checkout page
 * (web/src/main.tsx, Preact) with esbuild into web/dist/:
 *
 *   web/dist/assets/*          content-hashed JS/CSS/chunks/images, served by GET /checkout/assets/{file}
 *   web/dist/manifest.json     the files the asset route may serve (nothing else is served)
 *   web/dist/index.html        the page shell; the checkout-page function fills in the bootstrap
 *
 * The checkoutPage function ships web/dist (its `package.patterns` in lib/http/routes.ts), so run this
 * before `osls package`/`osls deploy`. Prints the gzip size of the page's JS + CSS.
 */
import { existsSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type BuildOptions } from 'esbuild';
import { CHECKOUT_ASSETS_PATH, type WebManifest } from '../../lib/http/checkout-page/web-manifest.js';
import { manifestOf, pageShell, sizes } from './web-build-output.js';

const REPO_ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));

export interface BuildWebOptions {
  /** Repository root holding web/src (default: this repository). */
  rootDir?: string;
  /** Output directory (default: <rootDir>/web/dist). */
  outDir?: string;
  log?: (line: string) => void;
}

export interface WebBuild {
  outDir: string;
  manifest: WebManifest;
  /** JS and CSS the page loads at start (entry, its static chunks, styles), raw and gzip -9 per file. */
  bytes: number;
  gzipBytes: number;
  /** Every JS and CSS file, lazily loaded chunks included, gzip -9 per file. */
  allGzipBytes: number;
}

export async function buildWeb(options: BuildWebOptions = {}): Promise<WebBuild> {
  const rootDir = resolve(options.rootDir ?? REPO_ROOT);
  const outDir = resolve(options.outDir ?? join(rootDir, 'web', 'dist'));
  const entry = join(rootDir, 'web', 'src', 'main.tsx');
  const styles = join(rootDir, 'web', 'src', 'styles.css');
  if (!existsSync(entry)) throw new Error(`build:web: ${relative(process.cwd(), entry)} does not exist`);

  // Build next to the target and swap at the end: a running server never sees half a build.
  const staging = `${outDir}.staging-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  const assetsDir = join(staging, 'assets');
  const common: BuildOptions = {
    absWorkingDir: rootDir,
    bundle: true,
    minify: true,
    target: 'es2020',
    format: 'esm',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    outdir: assetsDir,
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    assetNames: '[name]-[hash]',
    publicPath: CHECKOUT_ASSETS_PATH,
    loader: { '.svg': 'file', '.png': 'file', '.woff2': 'file' },
    define: { 'process.env.NODE_ENV': '"production"' },
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
    ...(existsSync(join(rootDir, 'web', 'tsconfig.json')) ? { tsconfig: join(rootDir, 'web', 'tsconfig.json') } : {}),
  };
  const page = await build({ ...common, entryPoints: [entry], splitting: true });
  const metafiles = [page.metafile!];
  // styles.css is bundled through main.tsx when it imports it; otherwise it is its own entry.
  if (existsSync(styles) && !Object.keys(page.metafile!.inputs).some((input) => resolve(rootDir, input) === styles)) {
    metafiles.push((await build({ ...common, entryPoints: [styles] })).metafile!);
  }

  const manifest = manifestOf(metafiles, rootDir, entry);
  await writeFile(join(staging, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  await writeFile(join(staging, 'index.html'), pageShell(manifest));
  await mkdir(resolve(outDir, '..'), { recursive: true });
  await swapIn(staging, outDir);

  const initial = await sizes(outDir, [manifest.script, ...manifest.preload, ...manifest.styles]);
  const all = await sizes(
    outDir,
    Object.keys(manifest.files).filter((file) => /\.(js|css)$/.test(file)),
  );
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  log(
    `build:web → ${relative(process.cwd(), outDir) || outDir}: ${Object.keys(manifest.files).length} files; ` +
      `JS+CSS loaded at start ${kb(initial.bytes)} (gzip ${kb(initial.gzipBytes)}), all JS+CSS ${kb(all.bytes)} (gzip ${kb(all.gzipBytes)})`,
  );
  return { outDir, manifest, ...initial, allGzipBytes: all.gzipBytes };
}

/** Replaces `outDir` with `staging`; retried, because two `npm start`s may build at once. */
async function swapIn(staging: string, outDir: string): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    await rm(outDir, { recursive: true, force: true });
    try {
      await rename(staging, outDir);
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (attempt >= 5 || (code !== 'ENOTEMPTY' && code !== 'EEXIST')) throw error;
    }
  }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const { parseCommandLine } = await import('./cli.js');
  parseCommandLine('npm run build:web', 'Usage: npm run build:web\n\nBuilds the hosted checkout page (web/) into web/dist with content-hashed assets.', {});
  buildWeb().catch((error: unknown) => {
    process.stderr.write(`${(error as Error)?.message ?? error}\n`);
    process.exit(1);
  });
}
