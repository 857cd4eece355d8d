'use strict';

/**
 * `osls offline` (what `npm start` runs): every function bundled by one esbuild run.
 *
 * serverless-esbuild builds each function on its own, one esbuild build per handler: 34 parses
 * of the same AWS SDK, jose and zod, about 10 s of both cores at every `npm start` (and at every
 * start the smoke and browser tests make). Offline nothing is zipped, so the bundles need not be
 * separate: one build with every handler as an entry point, with the options of
 * `custom.esbuild`, writes the same `functions/<dir>/handler.mjs` files in under a second, code
 * shared by several handlers in shared chunks beside them. serverless-offline loads them from
 * there (its `location`). `osls package` and `deploy` are untouched: serverless-esbuild still
 * builds and zips each function alone (test/deploy/cloudformation.test.ts).
 *
 * Listed before serverless-esbuild in serverless.yml: at `initialize` it marks every function
 * `skipEsbuild` (serverless-esbuild's own per-function opt-out), so that plugin builds nothing.
 */
const fs = require('node:fs');
const path = require('node:path');

/** custom.esbuild keys that belong to serverless-esbuild, not to esbuild (its bundle.js drops the same). */
const PLUGIN_ONLY_OPTIONS = new Set([
  'concurrency',
  'zipConcurrency',
  'exclude',
  'nativeZip',
  'packager',
  'packagePath',
  'watch',
  'keepOutputDirectory',
  'packagerOptions',
  'installExtraArgs',
  'outputFileExtension',
  'outputBuildFolder',
  'outputWorkFolder',
  'nodeExternals',
  'skipBuild',
  'skipRebuild',
  'skipBuildExcludeFns',
  'stripEntryResolveExtensions',
  'disposeContext',
]);
const SOURCE_EXTENSIONS = ['.ts', '.mts', '.js', '.mjs'];

class OfflineBundle {
  constructor(serverless) {
    this.serverless = serverless;
    this.hooks = {};
    const command = (serverless.processedInput?.commands ?? []).join(' ');
    if (command !== 'offline' && command !== 'offline start') return;
    this.built = undefined;
    this.hooks = {
      initialize: () => this.takeOver(),
      'before:offline:start': () => this.build(),
      'before:offline:start:init': () => this.build(),
    };
  }

  get serviceDir() {
    return this.serverless.serviceDir ?? this.serverless.config.servicePath;
  }

  get options() {
    return this.serverless.service.custom?.esbuild ?? {};
  }

  /** Where the bundles go: `.offline` in serverless-esbuild's work folder (npm start gives each run its own). */
  get outDir() {
    return path.resolve(this.serviceDir, this.options.outputWorkFolder ?? '.esbuild', '.offline');
  }

  takeOver() {
    for (const name of this.serverless.service.getAllFunctions()) this.serverless.service.getFunction(name).skipEsbuild = true;
    const custom = (this.serverless.service.custom ??= {});
    custom['serverless-offline'] = { ...custom['serverless-offline'], location: this.outDir };
  }

  build() {
    this.built ??= this.buildAll();
    return this.built;
  }

  async buildAll() {
    const { build } = require(require.resolve('esbuild', { paths: [this.serviceDir] }));
    const options = Object.fromEntries(Object.entries(this.options).filter(([key]) => !PLUGIN_ONLY_OPTIONS.has(key)));
    const extension = this.options.outputFileExtension ?? '.js';
    const entryPoints = new Map();
    for (const name of this.serverless.service.getAllFunctions()) {
      const { handler } = this.serverless.service.getFunction(name);
      if (typeof handler !== 'string') continue;
      const modulePath = handler.slice(0, handler.lastIndexOf('.'));
      entryPoints.set(modulePath, { in: this.sourceOf(name, modulePath), out: modulePath });
    }
    fs.rmSync(this.outDir, { recursive: true, force: true });
    await build({
      ...options,
      entryPoints: [...entryPoints.values()],
      outdir: this.outDir,
      ...(extension === '.js' ? {} : { outExtension: { '.js': extension } }),
      logLevel: 'warning',
    });
  }

  sourceOf(functionName, modulePath) {
    for (const extension of SOURCE_EXTENSIONS) {
      const file = path.join(this.serviceDir, modulePath + extension);
      if (fs.existsSync(file)) return file;
    }
    throw new this.serverless.classes.Error(`function ${functionName}: no source for handler module ${modulePath} (${SOURCE_EXTENSIONS.join(', ')})`);
  }
}

module.exports = OfflineBundle;
