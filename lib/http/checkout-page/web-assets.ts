import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { WebManifest } from './web-manifest.js';

export interface WebAsset {
  body: Buffer;
  contentType: string;
  /** Compressed once, for clients that accept gzip (API Gateway HTTP APIs do not compress). */
  gzip?: Buffer;
}

const COMPRESSIBLE = /^(text\/|image\/svg)/;

interface Loaded {
  mtimeMs: number;
  manifest: WebManifest;
  shell: string;
  files: Map<string, Promise<WebAsset>>;
}

/**
 * The built page (web/dist, see infra/local/build-web.ts), read from disk and kept in memory.
 * One `stat` of the manifest per request notices a rebuild (the local service keeps its
 * handlers warm), so a fresh `npm run build:web` is served without a restart.
 * Only files listed in the manifest exist for the asset route: a name is looked up, never
 * joined blindly into a path, so `../` cannot reach anything else.
 */
export class WebAssets {
  private loaded: Promise<Loaded> | undefined;

  constructor(private readonly distDir: string) {}

  /** web/dist/index.html with the bootstrap marker still in it. */
  async shell(): Promise<string> {
    return (await this.current()).shell;
  }

  async asset(name: string): Promise<WebAsset | undefined> {
    const loaded = await this.current();
    const listed = Object.hasOwn(loaded.manifest.files, name) ? loaded.manifest.files[name] : undefined;
    if (!listed) return undefined;
    let file = loaded.files.get(name);
    if (!file) {
      file = readFile(join(this.distDir, 'assets', name)).then((body) => ({
        body,
        contentType: listed.contentType,
        ...(COMPRESSIBLE.test(listed.contentType) ? { gzip: gzipSync(body, { level: 9 }) } : {}),
      }));
      file.catch(() => loaded.files.delete(name));
      loaded.files.set(name, file);
    }
    return file;
  }

  private async current(): Promise<Loaded> {
    const manifestPath = join(this.distDir, 'manifest.json');
    const { mtimeMs } = await stat(manifestPath); // ENOENT: the page was never built
    const previous = this.loaded ? await this.loaded.catch(() => undefined) : undefined;
    if (previous && previous.mtimeMs === mtimeMs) return previous;
    this.loaded = (async () => ({
      mtimeMs,
      manifest: JSON.parse(await readFile(manifestPath, 'utf8')) as WebManifest,
      shell: await readFile(join(this.distDir, 'index.html'), 'utf8'),
      files: new Map(),
    }))();
    return this.loaded;
  }
}
